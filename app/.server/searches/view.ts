/** A saved search as the API answers it (api/operations/saved-searches.ts). */
import { type SavedSearch, savedFiltersQuery, savedSearchPaths } from "./saved.ts";

export function savedSearchApiView(search: SavedSearch) {
  return {
    id: search.id,
    name: search.name,
    filters: search.filters,
    createdAt: search.createdAt.toISOString(),
    documentsPath: `/api/v1/documents${savedFiltersQuery(search.filters)}`,
    ...savedSearchPaths(search),
  };
}
