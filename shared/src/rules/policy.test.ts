// The policy's tables (docs/policy.md) as tables of cases: each relation an agent may have to an open
// house or a team, against every permission. A new permission without a row here fails the first test.

import { describe, expect, it } from 'vitest'
import {
  type Actor,
  agentView,
  asksForSelf,
  levelReaches,
  mayKeepProspect,
  mayOnOpenHouse,
  mayOnTeam,
  mayOwnAgentProfile,
  mayOwnInventory,
  mayOwnPurchase,
  maySchedulerFor,
  OPEN_HOUSE_PERMISSIONS,
  type OpenHouseFacts,
  type OpenHousePermission,
  type OpenHouseRelation,
  openHousePermissions,
  openHouseRelations,
  prospectView,
  type TeamFacts,
  type TeamPermission,
} from './policy.ts'
import { anActor } from './test-fixtures.ts'

const ME = 1
const LISTER = 2
const OTHER = 3

const actor = anActor

const openHouse = (overrides: Partial<OpenHouseFacts> = {}): OpenHouseFacts => ({
  listingREAgentId: LISTER,
  hostingREAgentId: null,
  scheduledByREAgentId: LISTER,
  publishLevel: 'Market Center',
  publishLevelId: 'FIRM-1',
  published: false,
  ...overrides,
})

type Case = { who: Actor; oh: OpenHouseFacts; relations: OpenHouseRelation[] }

/** One agent and one open house per relation (and none), as docs/policy.md names them. */
const RELATIONS = {
  listing: {
    who: actor(),
    oh: openHouse({ listingREAgentId: ME, scheduledByREAgentId: ME }),
    relations: ['listing'],
  },
  scheduler: {
    who: actor({ role: 'Team Lead', actsForIds: [LISTER] }),
    oh: openHouse({ scheduledByREAgentId: ME }),
    relations: ['scheduler'],
  },
  host: {
    who: actor(),
    oh: openHouse({ hostingREAgentId: ME, published: true, publishLevel: 'Hosting Myself' }),
    relations: ['host'],
  },
  offered: { who: actor(), oh: openHouse({ published: true }), relations: ['offered'] },
  'verified firm member': { who: actor(), oh: openHouse(), relations: [] },
} satisfies Record<string, Case>
type Relation = keyof typeof RELATIONS

const Y = true
const N = false
/** docs/policy.md's open-house table: listing, scheduler, host, offered, verified firm member. */
const OPEN_HOUSE_TABLE: Record<OpenHousePermission, [boolean, boolean, boolean, boolean, boolean]> = {
  view: [Y, Y, Y, Y, N],
  edit: [Y, Y, N, N, N],
  cancel: [Y, Y, N, N, N],
  publish: [Y, Y, N, N, N],
  clone: [Y, Y, N, N, N],
  claim: [N, N, N, Y, N],
  withdraw: [N, N, Y, N, N],
  manageAttendees: [N, N, Y, N, N],
  sendHostingReport: [N, N, Y, N, N],
  requestHostingReport: [Y, Y, N, N, N],
  viewAttendees: [Y, Y, Y, N, N],
  printDoorSign: [Y, Y, Y, N, N],
  shareSellerReport: [Y, Y, N, N, N],
  informSeller: [Y, N, N, N, N],
}
const COLUMNS = Object.keys(RELATIONS) as Relation[]

describe('open houses: relations × permissions', () => {
  it('has a row for every permission', () => {
    expect(Object.keys(OPEN_HOUSE_TABLE).sort()).toEqual([...OPEN_HOUSE_PERMISSIONS].sort())
  })

  it.each(COLUMNS)('derives the relation "%s" and nothing else', (relation) => {
    const { who, oh, relations } = RELATIONS[relation]
    expect([...openHouseRelations(who, oh)].sort()).toEqual([...relations].sort())
  })

  const cells = OPEN_HOUSE_PERMISSIONS.flatMap((permission) =>
    COLUMNS.map((relation, i) => ({ permission, relation, allowed: OPEN_HOUSE_TABLE[permission][i] })),
  )
  it.each(cells)('$permission for $relation: $allowed', ({ permission, relation, allowed }) => {
    const { who, oh } = RELATIONS[relation]
    expect(mayOnOpenHouse(who, permission, oh)).toBe(allowed)
  })

  it.each(COLUMNS)('lists for "%s" exactly the permissions the table gives it', (relation) => {
    const { who, oh } = RELATIONS[relation]
    const column = COLUMNS.indexOf(relation)
    expect(openHousePermissions(who, oh)).toEqual(
      OPEN_HOUSE_PERMISSIONS.filter((p) => OPEN_HOUSE_TABLE[p][column]),
    )
  })

  it('never offers the listing agent its own open house to claim, even published to its firm', () => {
    const oh = openHouse({ listingREAgentId: ME, scheduledByREAgentId: ME, published: true })
    expect(openHouseRelations(actor(), oh)).toEqual(new Set(['listing', 'offered']))
    expect(mayOnOpenHouse(actor(), 'claim', oh)).toBe(false)
  })

  it('takes the scheduler relation away once the listing agent left its teams', () => {
    const oh = openHouse({ scheduledByREAgentId: ME })
    expect(mayOnOpenHouse(actor({ role: 'Team Lead', actsForIds: [] }), 'edit', oh)).toBe(false)
    expect(mayOnOpenHouse(actor({ role: 'Team Lead', actsForIds: [] }), 'view', oh)).toBe(false)
  })
})

describe('publish levels: who an offer reaches', () => {
  const cases: Array<
    [string, Partial<Actor>, Pick<OpenHouseFacts, 'publishLevel' | 'publishLevelId'>, boolean]
  > = [
    [
      'Open To All reaches anyone',
      { firmVerified: false },
      { publishLevel: 'Open To All', publishLevelId: '-1' },
      Y,
    ],
    ['its verified firm', {}, { publishLevel: 'Market Center', publishLevelId: 'FIRM-1' }, Y],
    [
      'not its firm while unverified',
      { firmVerified: false },
      { publishLevel: 'Market Center', publishLevelId: 'FIRM-1' },
      N,
    ],
    ['not another firm', {}, { publishLevel: 'Market Center', publishLevelId: 'FIRM-2' }, N],
    ['a team it is in', { teamIds: [7] }, { publishLevel: 'Real Estate Team', publishLevelId: '7' }, Y],
    ['a group it is in', { teamIds: [7] }, { publishLevel: 'Real Estate Group', publishLevelId: '7' }, Y],
    [
      'a partnered team it is in',
      { teamIds: [7] },
      { publishLevel: 'Partnered Team', publishLevelId: '7' },
      Y,
    ],
    [
      'not a team it is not in',
      { teamIds: [8] },
      { publishLevel: 'Real Estate Team', publishLevelId: '7' },
      N,
    ],
    ['never Hosting Myself', {}, { publishLevel: 'Hosting Myself', publishLevelId: '0' }, N],
  ]
  it.each(cases)('%s', (_, who, level, reaches) => {
    expect(levelReaches(actor(who), level)).toBe(reaches)
  })

  it('offers nothing unpublished, whatever its level', () => {
    const oh = openHouse({ publishLevel: 'Open To All', publishLevelId: '-1', published: false })
    expect(openHouseRelations(actor(), oh).has('offered')).toBe(false)
  })
})

describe('teams: relations × permissions', () => {
  const team = (
    invitationStatus: TeamFacts['invitationStatus'],
    lead = OTHER,
    coLead: number | null = null,
  ) => ({
    reTeamLeadId: lead,
    reCoTeamLeadId: coLead,
    invitationStatus,
  })
  const RELATIONS_OF_TEAM = {
    lead: team(null, ME),
    coLead: team(null, OTHER, ME),
    member: team('accepted'),
    invited: team('invited'),
    declined: team('declined'),
    none: team(null),
  } satisfies Record<string, TeamFacts>
  //                                     lead coLead member invited declined none
  const TABLE: Record<TeamPermission, boolean[]> = {
    view: [Y, Y, Y, Y, N, N],
    edit: [Y, N, N, N, N, N],
    manageMembers: [Y, Y, N, N, N, N],
    readMembers: [Y, Y, Y, N, N, N],
    respondToInvitation: [N, N, Y, Y, N, N],
  }
  const names = Object.keys(RELATIONS_OF_TEAM) as Array<keyof typeof RELATIONS_OF_TEAM>
  const cells = (Object.keys(TABLE) as TeamPermission[]).flatMap((permission) =>
    names.map((relation, i) => ({ permission, relation, allowed: TABLE[permission][i] })),
  )
  it.each(cells)('$permission for $relation: $allowed', ({ permission, relation, allowed }) => {
    expect(mayOnTeam(actor(), permission, RELATIONS_OF_TEAM[relation])).toBe(allowed)
  })

  it('lets no lead of an unverified firm membership manage members', () => {
    expect(mayOnTeam(actor({ firmVerified: false }), 'manageMembers', RELATIONS_OF_TEAM.lead)).toBe(false)
  })
})

describe('what belongs to one agent', () => {
  it('answers "your own id" for the caller alone', () => {
    expect(asksForSelf({ id: ME }, ME)).toBe(true)
    expect(asksForSelf({ id: ME }, OTHER)).toBe(false)
    expect(asksForSelf({ id: ME }, Number.NaN)).toBe(false)
  })

  it.each([
    ['an inventory item', (id: number) => mayOwnInventory({ id: ME }, { owningREAgentId: id })],
    ['a plan purchase', (id: number) => mayOwnPurchase({ id: ME }, { reAgentId: id })],
    ['a prospect kept', (id: number) => mayKeepProspect({ id: ME }, { createdByREAgentId: id })],
    ['an agent profile (by user)', (id: number) => mayOwnAgentProfile({ id: ME }, { porchlightUserId: id })],
  ])('%s is its owner’s only', (_, owns) => {
    expect(owns(ME)).toBe(true)
    expect(owns(OTHER)).toBe(false)
  })

  it('lets an agent schedule for itself, and a scheduler for whom it acts', () => {
    expect(maySchedulerFor(actor(), ME)).toBe(true)
    expect(maySchedulerFor(actor({ actsForIds: [LISTER] }), LISTER)).toBe(false)
    expect(maySchedulerFor(actor({ role: 'Admin Team Member', actsForIds: [LISTER] }), LISTER)).toBe(true)
    expect(maySchedulerFor(actor({ role: 'Team Lead' }), LISTER)).toBe(false)
  })
})

describe('what an agent sees of people', () => {
  const visit = (
    o: Partial<{ listing: number; host: number | null; scheduler: number; consent: boolean }>,
  ) => ({
    listingREAgentId: o.listing ?? LISTER,
    hostingREAgentId: o.host ?? null,
    scheduledByREAgentId: o.scheduler ?? LISTER,
    listingAgentConsent: o.consent ?? false,
  })
  it.each([
    ['its own lead', { createdByREAgentId: ME, visits: [] }, 'full'],
    [
      'the listing agent the guest consented to',
      { createdByREAgentId: OTHER, visits: [visit({ listing: ME, consent: true })] },
      'full',
    ],
    [
      'the listing agent without consent',
      { createdByREAgentId: OTHER, visits: [visit({ listing: ME })] },
      'masked',
    ],
    ['the host', { createdByREAgentId: OTHER, visits: [visit({ host: ME })] }, 'masked'],
    ['anyone else', { createdByREAgentId: OTHER, visits: [visit({})] }, null],
  ] as const)('a prospect: %s → %s', (_, p, view) => {
    expect(prospectView(actor(), p)).toBe(view)
  })

  it.each([
    ['itself', { id: ME, firmLicense: 'FIRM-2', firmVerified: false }, {}, 'full'],
    [
      'a teammate',
      { id: OTHER, firmLicense: 'FIRM-1', firmVerified: true },
      { teammateIds: [OTHER] },
      'contact',
    ],
    ['a verified colleague', { id: OTHER, firmLicense: 'FIRM-1', firmVerified: true }, {}, 'name'],
    ['an unverified colleague', { id: OTHER, firmLicense: 'FIRM-1', firmVerified: false }, {}, null],
    ['another firm', { id: OTHER, firmLicense: 'FIRM-2', firmVerified: true }, {}, null],
  ] as const)('an agent: %s → %s', (_, target, who, view) => {
    expect(agentView(actor(who), target)).toBe(view)
  })
})
