// Summarize and Impact on every circular card of a page: the generator
// leaves an empty slot (data-card-actions, the circular's id) in each
// card, and this one island renders a card's actions into its slot, so a
// page of many cards mounts React once. What a card's actions do is
// CircularActions' (the circular page uses it directly).
import { useEffect, useState } from "react";
import { createPortal } from "react-dom";
import { dataCardActions, sel } from "../lib/contract";
import { withProviders } from "../lib/providers";
import { CircularActions } from "./CircularActions";
import type { Schemas } from "../lib/api";

type Props = { entityType?: Schemas["EntityType"] };

// A slot inside a hidden card (the dashboard draws cards that Load More
// and its filter show later) gets its actions when the card is shown, so
// mounting costs only what is on screen.
const allSlots = () => Array.from(document.querySelectorAll<HTMLElement>(sel(dataCardActions)));
const shown = (slot: HTMLElement) => !slot.closest("[hidden]");

function CardActions({ entityType = "PSP" }: Props) {
  const [slots, setSlots] = useState(() => allSlots().filter(shown));
  useEffect(() => {
    // Slots once filled stay filled (their state survives hiding).
    const mo = new MutationObserver(() =>
      setSlots((prev) => {
        const next = allSlots().filter((s) => prev.includes(s) || shown(s));
        return next.length === prev.length && next.every((s, i) => s === prev[i]) ? prev : next;
      }),
    );
    // childList: cards an island draws from the API's answer bring slots of their own
    mo.observe(document.body, { attributes: true, attributeFilter: ["hidden"], subtree: true, childList: true });
    return () => mo.disconnect();
  }, []);
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
