// Summarize and Impact on every circular card of a page: the generator
// leaves an empty slot (data-card-actions, the circular's id) in each
// card, and this one island renders a card's actions into its slot, so a
// page of many cards mounts React once. What a card's actions do is
// CircularActions' (the circular page uses it directly).
import { useState } from "react";
import { createPortal } from "react-dom";
import { dataCardActions, sel } from "../lib/contract";
import { withProviders } from "../lib/providers";
import { CircularActions } from "./CircularActions";
import type { Schemas } from "../lib/api";

type Props = { entityType?: Schemas["EntityType"] };

function CardActions({ entityType = "PSP" }: Props) {
  const [slots] = useState(() => Array.from(document.querySelectorAll<HTMLElement>(sel(dataCardActions))));
  return (
    <>
      {slots.map((slot) => {
        const id = slot.getAttribute(dataCardActions) ?? "";
        return createPortal(<CircularActions id={id} entityType={entityType} />, slot, id);
      })}
    </>
  );
}

export default withProviders(CardActions);
