/** Queue and job names with their payloads; the worker checks each has exactly one processor. */
export interface JobPayloads {
  mail: {
    /**
     * Sends these stored mails, one after another (a team's invitations go ten to a job). `mailId` is
     * the one-mail job stored before decision 020; an outbox row of that shape is still sent.
     */
    send: { mailIds: number[] } | { mailId: number }
    /** A visit's follow-up mail, due two days after the sign-in; consent is checked again when it runs. */
    followUp: { openHouseId: number; prospectId: number }
  }
  'auto-clone': {
    clone: { openHouseId: number }
  }
  receipts: {
    capture: { openHouseId: number }
    /** The seller's one mail of each link with its address, when the open house ends (decision 051). */
    seller: { openHouseId: number }
  }
  /** One attempt at one webhook delivery; a failed attempt writes the next one, due later. */
  webhooks: {
    deliver: { deliveryId: number; manual?: boolean }
  }
  /** One push to one browser subscription (Web Push, decision 050). */
  push: {
    send: { messageId: number }
  }
  /**
   * One attempt at one guest sign-in for the agent's Follow Up Boss (a `fub_delivery` row, decision 041).
   * `agentId` and `event` are the job stored before deliveries were rows; one of that shape still runs.
   */
  fub: {
    visit: { deliveryId: number } | { agentId: number; event: Record<string, unknown> }
  }
}

export type QueueName = keyof JobPayloads
export type JobName<Q extends QueueName> = keyof JobPayloads[Q] & string
export type JobPayload<Q extends QueueName, N extends JobName<Q>> = JobPayloads[Q][N]

export const jobNames: { [Q in QueueName]: readonly JobName<Q>[] } = {
  mail: ['send', 'followUp'],
  'auto-clone': ['clone'],
  receipts: ['capture', 'seller'],
  webhooks: ['deliver'],
  fub: ['visit'],
  push: ['send'],
}

export const queueNames = Object.keys(jobNames) as QueueName[]
