// The bare guest sign-in the sign-in and fan-out benches measure ours against.
import { createHash, randomBytes } from 'node:crypto'
import type pg from 'pg'
import type { guestVisitor } from './support.ts'

/**
 * The honest baseline: the same rows in the same tables, with their constraints and indexes, in one
 * transaction, as a sign-in writes them (the open house read, the agent's prospect, the attendee, the
 * guest's token for that visit), with no policy, validation, events or rate limit. Every guest here is new.
 */
export async function bareSignIn(pool: pg.Pool, body: ReturnType<typeof guestVisitor>) {
  const client = await pool.connect()
  try {
    await client.query('begin')
    const oh = await client.query(
      `select id, listing_re_agent_id, hosting_re_agent_id, open_house_canceled_flag, published_at,
         scheduled_by_re_agent_id, ends_at from open_house where id = $1`,
      [body.openHouseId],
    )
    const owner = oh.rows[0].hosting_re_agent_id ?? oh.rows[0].listing_re_agent_id
    const prospect = await client.query(
      `insert into prospect (prospect_first_name, prospect_last_name, prospect_email_id,
         prospect_phone_number, working_with_re_agent_flag, created_by_re_agent_id, email_consent,
         sms_consent)
       values ($1, $2, $3, $4, false, $5, false, false)
       on conflict (created_by_re_agent_id, lower(prospect_email_id)) do nothing returning id`,
      [body.prospectFirstName, body.prospectLastName, body.prospectEmailId, body.prospectPhoneNumber, owner],
    )
    const prospectId = prospect.rows[0].id
    const visit = await client.query(
      `insert into open_house_attendee (open_house_id, prospect_id, guest_details, capture_device,
         client_request_id)
       values ($1, $2, $3, 'phone', $4) returning id`,
      [body.openHouseId, prospectId, JSON.stringify(body), body.clientRequestId],
    )
    const visitId = visit.rows[0].id
    const token = randomBytes(32).toString('base64url')
    await client.query(
      'insert into guest_token (token_hash, prospect_id, open_house_id, attendee_id) values ($1, $2, $3, $4)',
      [createHash('sha256').update(token).digest('hex'), prospectId, body.openHouseId, visitId],
    )
    await client.query('commit')
    return { data: { id: visitId, guestToken: token } }
  } catch (err) {
    await client.query('rollback')
    throw err
  } finally {
    client.release()
  }
}
