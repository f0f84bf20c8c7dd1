import {
  type CustomAnswer,
  type CustomQuestion,
  type CustomQuestionInput,
  customAnswerList,
  customAnswerProblem,
  type ProspectAnswers,
  prospectView,
} from '@porchlight/shared'
import type { Db } from '../../db/database.ts'
import type { AgentRow } from '../../db/rows.ts'
import type { Trx } from '../../db/transaction.ts'
import type { JsonValue } from '../../db/types.ts'
import { NotFoundError, ValidationError } from '../../errors.ts'
import type { Access } from '../../policy/access.ts'
import type { CustomQuestionRepo, CustomQuestionRow } from './repo.ts'

type SavedInput = { id?: number; text: string; kind: CustomQuestion['kind']; choices: string[] | null }

export function toCustomQuestion(row: CustomQuestionRow): CustomQuestion {
  return {
    id: row.id,
    text: row.questionText,
    kind: row.kind,
    choices: Array.isArray(row.choices) ? (row.choices as string[]) : null,
  }
}

/**
 * Issue 14's custom questions: up to five per open house, saved with the open house, copied with it,
 * shown on the guest form and answered per visit.
 */
export function createCustomQuestions(
  repo: CustomQuestionRepo,
  access?: Pick<Access, 'actor' | 'prospectFacts'>,
) {
  async function list(openHouseId: number, trx?: Db | Trx): Promise<CustomQuestion[]> {
    return (await repo.list([openHouseId], false, trx)).map(toCustomQuestion)
  }

  return {
    list,

    /**
     * The prospect detail's answers, per visit: to whoever may see the prospect (prospectView), the
     * visits to its own open houses; to the owner, every visit. Others learn nothing (404).
     */
    async ofProspect(caller: AgentRow, prospectId: number): Promise<ProspectAnswers[]> {
      if (!access) throw new Error('createCustomQuestions needs the access check for ofProspect')
      const [facts, actor] = await Promise.all([
        access.prospectFacts(prospectId, caller.id),
        access.actor(caller),
      ])
      if (!facts || !prospectView(actor, facts)) throw new NotFoundError()
      const visits = await repo.answeredVisits(prospectId, caller.id, facts.createdByREAgentId === caller.id)
      const wording = new Map<number, CustomQuestion[]>()
      for (const row of await repo.list([...new Set(visits.map((v) => v.openHouseId))], true)) {
        wording.set(row.openHouseId, [...(wording.get(row.openHouseId) ?? []), toCustomQuestion(row)])
      }
      return visits
        .map((v) => ({
          openHouseId: v.openHouseId,
          propertyAddress: v.propertyAddress,
          scheduledDate: v.scheduledDate,
          signedInAt: new Date(v.createdDate).toISOString(),
          answers: customAnswerList(
            wording.get(v.openHouseId) ?? [],
            v.customAnswers as Record<string, unknown>,
          ),
        }))
        .filter((v) => v.answers.length > 0)
    },

    /**
     * Makes the open house's questions these, in this order. A question sent with its id keeps it (and
     * its answers); one left out is taken off the form. `undefined` leaves them as they are.
     */
    async save(
      trx: Trx,
      openHouseId: number,
      input: ReadonlyArray<SavedInput | CustomQuestionInput> | undefined,
    ): Promise<void> {
      if (input === undefined) return
      const current = await repo.list([openHouseId], false, trx)
      const known = new Set(current.map((q) => q.id))
      const unknown = input.flatMap((q, i) =>
        q.id !== undefined && !known.has(Number(q.id))
          ? [{ field: `customQuestions.${i}.id`, message: 'This question is not one of this open house' }]
          : [],
      )
      if (unknown.length > 0) throw new ValidationError(unknown)
      const kept = new Set<number>()
      for (const [position, q] of input.entries()) {
        const values = {
          position,
          questionText: q.text,
          kind: q.kind,
          choices: q.kind === 'choice' ? (q.choices ?? []) : null,
        }
        if (q.id === undefined) await repo.insert({ openHouseId, ...values }, trx)
        else {
          kept.add(Number(q.id))
          await repo.update(Number(q.id), values, trx)
        }
      }
      await repo.remove(
        current.filter((q) => !kept.has(q.id)).map((q) => q.id),
        trx,
      )
    },

    /** A copy's questions: the same wording, new ids. */
    async copy(trx: Trx, fromOpenHouseId: number, toOpenHouseId: number): Promise<void> {
      for (const [position, q] of (await list(fromOpenHouseId, trx)).entries()) {
        await repo.insert(
          { openHouseId: toOpenHouseId, position, questionText: q.text, kind: q.kind, choices: q.choices },
          trx,
        )
      }
    },

    /**
     * The guest's answers checked against the open house's questions: keyed by question id, and by the
     * question as the guest read it (kept with what it typed at this visit); null when none was given.
     */
    async checkAnswers(
      trx: Trx,
      openHouseId: number,
      answers: Record<string, string>,
    ): Promise<{ byId: JsonValue; worded: Record<string, string> } | null> {
      const entries = Object.entries(answers)
      if (entries.length === 0) return null
      const byId = new Map((await list(openHouseId, trx)).map((q) => [String(q.id), q]))
      const problems = entries.flatMap(([id, answer]) => {
        const q = byId.get(id)
        const problem = q ? customAnswerProblem(q, answer) : 'This question is not asked at this open house'
        return problem ? [{ field: `customAnswers.${id}`, message: problem }] : []
      })
      if (problems.length > 0) throw new ValidationError(problems)
      return {
        byId: Object.fromEntries(entries),
        worded: Object.fromEntries(entries.map(([id, answer]) => [byId.get(id)?.text ?? id, answer])),
      }
    },

    /** Each open house's questions, removed ones too: to word the answers given at its visits. */
    async wording(openHouseIds: number[], trx?: Db | Trx): Promise<Map<number, CustomQuestion[]>> {
      const out = new Map<number, CustomQuestion[]>()
      for (const row of await repo.list([...new Set(openHouseIds)], true, trx)) {
        const of = out.get(row.openHouseId) ?? []
        of.push(toCustomQuestion(row))
        out.set(row.openHouseId, of)
      }
      return out
    },

    /** Each prospect's answers as lines ("Are you pre-approved?: Yes"), for an export's notes. */
    async answerLinesOf(prospectIds: number[]): Promise<Map<number, string[]>> {
      const out = new Map<number, string[]>()
      for (const row of await repo.answersOfProspects(prospectIds)) {
        const lines = out.get(row.prospectId) ?? []
        lines.push(`${row.questionText}: ${row.answer}`)
        out.set(row.prospectId, lines)
      }
      return out
    },

    /** One visit's answers (the attendee's custom_answers) with their wording. */
    async answersOfVisit(openHouseId: number, answers: unknown, trx?: Db | Trx): Promise<CustomAnswer[]> {
      if (!answers || typeof answers !== 'object') return []
      const questions = (await repo.list([openHouseId], true, trx)).map(toCustomQuestion)
      return customAnswerList(questions, answers as Record<string, unknown>)
    },

    /** One visit's answers with their wording, in the questions' order. */
    answersOf(questions: CustomQuestion[] | undefined, answers: unknown): CustomAnswer[] {
      if (!questions || !answers || typeof answers !== 'object') return []
      return customAnswerList(questions, answers as Record<string, unknown>)
    },
  }
}

export type CustomQuestions = ReturnType<typeof createCustomQuestions>
