import {
  mayKeepProspect,
  type Prospect,
  type ProspectExportQuery,
  type ProspectNote,
} from '@porchlight/shared'
import type { z } from 'zod'
import type { AgentRow } from '../../db/rows.ts'
import { NotFoundError } from '../../errors.ts'
import type { Access } from '../../policy/access.ts'
import type { ProspectService } from '../prospects/service.ts'
import { vcard } from './vcard.ts'

type ExportQuery = z.output<typeof ProspectExportQuery>

/** The export reads the list a page at a time, through the same filters as the screen and the CSV. */
const PAGE = 500

export interface ContactCardDeps {
  prospects: Pick<ProspectService, 'details' | 'notes' | 'listOwn'>
  access: Access
  config: { publicUrl: string }
}

/** The lines of NOTE: the owner's business with the lead, then its notes, oldest first. */
function noteOf(p: Prospect, notes: ProspectNote[] = []): string | null {
  const lines = [
    p.prospectStage && `Stage: ${p.prospectStage}`,
    p.homeBuyingTimelines && `Buying timeline: ${p.homeBuyingTimelines}`,
    p.workingWithREAgentFlag !== null && `Working with an agent: ${p.workingWithREAgentFlag ? 'yes' : 'no'}`,
    p.nextFollowUpDate && `Next follow-up: ${p.nextFollowUpDate}`,
    ...notes.map((n) => `${n.createdDate.slice(0, 10)}: ${n.noteText}`),
  ].filter((l): l is string => typeof l === 'string' && l !== '')
  return lines.length ? lines.join('\n') : null
}

/** Prospects as vCard 4.0 contacts (RFC 6350), for the agent's address book: the owner's only. */
export function createContactCardService(d: ContactCardDeps) {
  const host = new URL(d.config.publicUrl).hostname

  function card(p: Prospect, notes?: ProspectNote[]): string {
    const zip = [p.prospectZipCode, p.prospectZipPlus4].filter(Boolean).join('-')
    return vcard({
      uid: `urn:porchlight:${host}:prospect:${p.id}`,
      firstName: p.prospectFirstName,
      middleName: p.prospectMiddleName,
      lastName: p.prospectLastName,
      email: p.prospectEmailId,
      phone: p.prospectPhoneNumber,
      address: {
        street: [p.prospectAddress1, p.prospectAddress2],
        city: p.prospectCity,
        region: p.prospectState,
        postalCode: zip,
        country: p.prospectCountry,
      },
      note: noteOf(p, notes),
      rev: new Date(p.updatedDate),
    })
  }

  const fileName = (p: Prospect) =>
    `${`${p.prospectFirstName}-${p.prospectLastName}`.replace(/[^\p{L}\p{N}-]+/gu, '-')}.vcf`

  return {
    /** One prospect's card: its owner only, to anyone else it does not exist (404). */
    async one(caller: AgentRow, prospectId: number): Promise<{ fileName: string; body: string }> {
      const [facts, actor] = await Promise.all([
        d.access.prospectFacts(prospectId, caller.id),
        d.access.actor(caller),
      ])
      if (!facts || !mayKeepProspect(actor, facts)) throw new NotFoundError()
      const [p, notes] = await Promise.all([
        d.prospects.details(caller, prospectId),
        d.prospects.notes(caller, prospectId),
      ])
      return { fileName: fileName(p), body: card(p, notes) }
    },

    /** Every prospect of the agent's list as filtered, one card after another in one file. */
    async list(caller: AgentRow, q: ExportQuery): Promise<{ fileName: string; body: string }> {
      const cards: string[] = []
      for (let offset = 0; ; offset += PAGE) {
        const page = await d.prospects.listOwn(caller, { ...q, limit: PAGE, offset })
        cards.push(...page.data.map((p) => card(p)))
        if (page.data.length < PAGE) break
      }
      return {
        fileName: `porchlight-prospects-${new Date().toISOString().slice(0, 10)}.vcf`,
        body: cards.join(''),
      }
    },
  }
}

export type ContactCardService = ReturnType<typeof createContactCardService>
