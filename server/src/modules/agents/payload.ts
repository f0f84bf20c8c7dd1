import type { Agent } from '@porchlight/shared'
import type { AgentRow } from './repo.ts'

/** Who an operator's decision is signed by, in mails and in Firm Members. */
export const OPERATOR_NAME = 'The Porchlight team'

export function toAgent(row: AgentRow): Agent {
  return {
    ...row,
    requestedRole: row.requestedRole ?? null,
    createdDate: new Date(row.createdDate).toISOString(),
    updatedDate: new Date(row.updatedDate).toISOString(),
  }
}
