// The team query keys alone, so the live bridge every signed-in page loads (live/events.ts) does not
// pull in the team queries and mutations.

/** Every team query starts with 'teams', so one invalidation refreshes them all (live events). */
export const teamKeys = {
  all: ['teams'] as const,
  ofAgent: (agentId: number) => ['teams', 'ofAgent', agentId] as const,
  details: (id: number) => ['teams', 'details', id] as const,
  members: (id: number) => ['teams', 'members', id] as const,
}
