// Loaded only by pages that contain an island. Each island is its own chunk,
// imported only when its placeholder is on the page.
import { mountIslands, type IslandImporters } from "./mount";

const importers = import.meta.glob(["../islands/*.tsx", "!../islands/*.test.tsx"]) as IslandImporters;

void mountIslands(document, importers);
