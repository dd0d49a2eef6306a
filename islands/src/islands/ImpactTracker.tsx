// /impact-tracker: one search over the entity cards (type and name) and
// the three circular lists (number, title, id and slug), with Clear. The
// cards, their scores, bands and counts are the generator's.
import { useEffect } from "react";
import { dataHeading, sel } from "../lib/contract";
import { Button, SearchBox, Toolbar } from "../lib/controls";
import { useMatches, useShowList, useStaticList } from "../lib/directory";
import { entitiesHeading } from "../lib/impact-tracker";
import { useQueryState } from "../lib/query-state";

const defaults = { q: "" };
const entityKeys = ["type", "name"];
const circularKeys = ["circularNumber", "title", "id", "slug"];

export default function ImpactTracker() {
  const [state, set] = useQueryState(defaults);
  const entities = useStaticList("entities");
  const high = useStaticList("high-circulars");
  const medium = useStaticList("medium-circulars");
  const open = useStaticList("open-circulars");
  useShowList(entities, useMatches(entities, entityKeys, state.q));
  useShowList(high, useMatches(high, circularKeys, state.q));
  useShowList(medium, useMatches(medium, circularKeys, state.q));
  useShowList(open, useMatches(open, circularKeys, state.q));

  useEffect(() => {
    for (const el of document.querySelectorAll<HTMLElement>(sel(dataHeading, "entities"))) el.textContent = entitiesHeading(state.q);
  }, [state.q]);

  return (
    <Toolbar label="Search the impact tracker">
      <SearchBox
        id="impact-search"
        label="Search entity types or circular IDs"
        placeholder="Search entity types or circular IDs..."
        value={state.q}
        onChange={(q) => set({ q })}
      />
      <Button onClick={() => set(defaults)} disabled={state.q === ""}>
        Clear
      </Button>
    </Toolbar>
  );
}
