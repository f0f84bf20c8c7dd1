import {
  type AddProspectNoteBody,
  EMAIL_CONSENT_LABELS,
  mayKeepProspect,
  type OwnProspectListQuery,
  PROSPECT_CSV_HEADERS,
  type Prospect,
  type ProspectCsvRow,
  type ProspectExportQuery,
  type ProspectNote,
  type ProspectOpenHouseOption,
  prospectSearchTerm,
  prospectSource,
  prospectsCsvFileName,
  prospectTags,
  type UpdateProspectFollowUpBody,
} from '@porchlight/shared'
import type { z } from 'zod'
import type { AgentRow } from '../../db/rows.ts'
import { NotFoundError } from '../../errors.ts'
import { toCsv } from '../../lib/csv.ts'
import type { Access } from '../../policy/access.ts'
import type { CustomQuestions } from '../custom-questions/service.ts'
import type { ProspectNoteRepo } from './note-repo.ts'
import type { ProspectFilters, ProspectRepo, ProspectRow } from './repo.ts'

// The prospect list as a small CRM (issue 13): the own list sorted, filtered and paged with its total,
// its export for Follow Up Boss and kvCORE, and the owner's stage, follow-up date and notes.

type ListQuery = z.output<typeof OwnProspectListQuery>
type ExportQuery = z.output<typeof ProspectExportQuery>
type FollowUpBody = z.output<typeof UpdateProspectFollowUpBody>
type NoteBody = z.output<typeof AddProspectNoteBody>

/** The open houses the list's filter offers: the latest ones the agent lists or hosts. */
const OPEN_HOUSE_OPTIONS = 100

export interface ProspectCrmDeps {
  repo: ProspectRepo
  notes: ProspectNoteRepo
  access: Access
  toProspect: (row: ProspectRow, viewerId: number) => Prospect
  /** The answers to open houses' own questions, added to the export's notes. */
  questions: Pick<CustomQuestions, 'answerLinesOf'>
}

const filtersOf = (q: ExportQuery): ProspectFilters => ({
  term: prospectSearchTerm(q.q),
  noRealtor: q.noRealtor,
  timeline: q.timeline,
  stage: q.stage,
  openHouseId: q.openHouseId,
})

const noteOf = (n: { id: number; prospectId: number; noteText: string; createdDate: Date }) => ({
  id: n.id,
  prospectId: n.prospectId,
  noteText: n.noteText,
  createdDate: new Date(n.createdDate).toISOString(),
})

/** Today's date in UTC, 'YYYY-MM-DD'. */
const today = () => new Date().toISOString().slice(0, 10)

export function createProspectCrm(d: ProspectCrmDeps) {
  const { repo } = d

  /** The policy: the prospect's stage, follow-up and notes exist for its owner only (404 to others). */
  async function kept(caller: AgentRow, prospectId: number) {
    const [facts, actor] = await Promise.all([
      d.access.prospectFacts(prospectId, caller.id),
      d.access.actor(caller),
    ])
    if (!facts || !mayKeepProspect(actor, facts)) throw new NotFoundError()
  }

  return {
    /** A page of the agent's own prospects and how many match in all (counted beside the page). */
    async listOwn(caller: AgentRow, q: ListQuery): Promise<{ data: Prospect[]; total: number }> {
      const filters = filtersOf(q)
      const [rows, total] = await Promise.all([
        repo.listOwn(caller.id, { ...filters, sort: q.sort, limit: q.limit, offset: q.offset }),
        repo.countOwn(caller.id, filters),
      ])
      return { data: rows.map((r) => d.toProspect(r, caller.id)), total }
    },

    /**
     * Every prospect of the list as filtered, as CSV with the columns Follow Up Boss and kvCORE map
     * (with a BOM, so spreadsheet programs read UTF-8), and its dated file name.
     */
    async exportCsv(caller: AgentRow, q: ExportQuery) {
      const rows = await repo.exportOwn(caller.id, { ...filtersOf(q), sort: q.sort })
      const answers = await d.questions.answerLinesOf(rows.map((r) => r.id))
      const lines = rows.map((r): ProspectCsvRow => {
        const zip = [r.prospectZipCode, r.prospectZipPlus4].filter(Boolean).join('-')
        const notes = [
          r.nextFollowUpDate && `Next follow-up: ${r.nextFollowUpDate}`,
          r.notes,
          ...(answers.get(r.id) ?? []),
        ]
        return {
          'First Name': r.prospectFirstName,
          'Last Name': r.prospectLastName,
          Email: r.prospectEmailId,
          Phone: r.prospectPhoneNumber,
          Address: [r.prospectAddress1, r.prospectAddress2].filter(Boolean).join(', '),
          City: r.prospectCity ?? '',
          State: r.prospectState ?? '',
          Zip: zip,
          Source: prospectSource(r.sourceAddress),
          Tags: prospectTags({
            prospectStage: r.prospectStage,
            homeBuyingTimelines: r.homeBuyingTimelines,
            workingWithREAgentFlag: r.workingWithReAgentFlag,
          }),
          Notes: notes.filter(Boolean).join('\n'),
          'Email Consent': EMAIL_CONSENT_LABELS[r.emailConsentState],
        }
      })
      return { fileName: prospectsCsvFileName(today()), csv: toCsv(lines, PROSPECT_CSV_HEADERS) }
    },

    /** The open houses the list may be filtered by. */
    async openHouseOptions(caller: AgentRow): Promise<ProspectOpenHouseOption[]> {
      return repo.openHousesOf(caller.id, OPEN_HOUSE_OPTIONS)
    },

    async updateFollowUp(caller: AgentRow, prospectId: number, body: FollowUpBody): Promise<Prospect> {
      await kept(caller, prospectId)
      const row = await repo.updateFollowUp(prospectId, {
        ...(body.prospectStage !== undefined && { prospectStage: body.prospectStage }),
        ...(body.nextFollowUpDate !== undefined && { nextFollowUpDate: body.nextFollowUpDate }),
      })
      return d.toProspect(row, caller.id)
    },

    async notes(caller: AgentRow, prospectId: number): Promise<ProspectNote[]> {
      await kept(caller, prospectId)
      return (await d.notes.list(prospectId)).map(noteOf)
    },

    async addNote(caller: AgentRow, prospectId: number, body: NoteBody): Promise<ProspectNote> {
      await kept(caller, prospectId)
      return noteOf(await d.notes.add({ prospectId, reAgentId: caller.id, noteText: body.noteText }))
    },
  }
}
