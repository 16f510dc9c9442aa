// What the staff member searched for (a name, a phone number): kept in this page's memory only, never in the address
// (where the browser's history and every proxy's log would keep it) and never in sessionStorage or any other storage.
// A reload forgets it; going to a lead and back keeps it. The API gets it in the body of POST /leads/search.
let term: string | undefined;

export const searchTerm = (): string | undefined => term;

export const setSearchTerm = (next: string | undefined) => {
  term = next?.trim() || undefined;
};
