// The bare guest sign-in the sign-in and fan-out benches measure ours against.
import { createHash, randomBytes } from 'node:crypto'
import type pg from 'pg'
import type { guestVisitor } from './support.ts'

/**
 * The honest baseline: the same rows in the same tables, with their constraints and indexes, in one
 * transaction, as a sign-in writes them (the open house read, the agent's prospect, the attendee, the
 * guest's token), with no policy, validation, events or rate limit.
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
         prospect_phone_number, working_with_re_agent_flag, created_by_re_agent_id, client_request_id,
         email_consent, sms_consent)
       values ($1, $2, $3, $4, false, $5, $6, false, false)
       on conflict (created_by_re_agent_id, lower(prospect_email_id)) do nothing returning id`,
      [
        body.prospectFirstName,
        body.prospectLastName,
        body.prospectEmailId,
        body.prospectPhoneNumber,
        owner,
        body.clientRequestId,
      ],
    )
    const prospectId = prospect.rows[0].id
    await client.query(
      `insert into open_house_attendee (open_house_id, prospect_id, guest_details, capture_device)
       values ($1, $2, $3, 'phone') on conflict (prospect_id, open_house_id) do nothing returning id`,
      [body.openHouseId, prospectId, JSON.stringify(body)],
    )
    const token = randomBytes(32).toString('base64url')
    await client.query(
      'insert into guest_token (token_hash, prospect_id, open_house_id) values ($1, $2, $3)',
      [createHash('sha256').update(token).digest('hex'), prospectId, body.openHouseId],
    )
    await client.query('commit')
    return { data: { id: prospectId, guestToken: token } }
  } catch (err) {
    await client.query('rollback')
    throw err
  } finally {
    client.release()
  }
}
