// The bare guest sign-ins the sign-in and fan-out benches measure ours against (issue 38).
import { createHash, randomBytes } from 'node:crypto'
import type pg from 'pg'
import type { guestVisitor } from './support.ts'

/** Where a bare sign-in writes its rows: our tables, or copies of them (`plainTables`). */
export interface SignInTables {
  prospect: string
  attendee: string
  token: string
  consent: string
  unsubscribe: string
  mail: string
  outbox: string
}

export const OUR_TABLES: SignInTables = {
  prospect: 'prospect',
  attendee: 'open_house_attendee',
  token: 'guest_token',
  consent: 'consent_event',
  unsubscribe: 'unsubscribe_token',
  mail: 'mail',
  outbox: 'outbox',
}

/**
 * Plain tables: each of ours copied with its columns, defaults, checks and indexes (`like … including
 * all`) but no trigger and no foreign key, so a row costs what PostgreSQL needs to store and index it.
 */
export async function plainTables(pool: pg.Pool): Promise<SignInTables> {
  const plain = Object.fromEntries(
    Object.entries(OUR_TABLES).map(([k, table]) => [k, `bench_plain_${table}`]),
  ) as unknown as SignInTables
  for (const [k, table] of Object.entries(OUR_TABLES)) {
    const copy = plain[k as keyof SignInTables]
    await pool.query(`create table if not exists ${copy} (like ${table} including all)`)
  }
  return plain
}

type Body = ReturnType<typeof guestVisitor> & { emailConsent?: boolean }

const ADDRESS = '100 Lantern Way, Alpharetta, Georgia 30004'

/** The statements of a sign-in into `t`, prepared once per connection (pg names them). */
function statements(t: SignInTables, name: string) {
  return {
    openHouse: {
      name: `${name}-oh`,
      text: `select id, coalesce(hosting_re_agent_id, listing_re_agent_id) as owner, open_house_canceled_flag
        from open_house where id = $1`,
    },
    prospect: {
      name: `${name}-prospect`,
      text: `insert into ${t.prospect} (prospect_first_name, prospect_last_name, prospect_email_id,
          prospect_phone_number, working_with_re_agent_flag, created_by_re_agent_id, email_consent, sms_consent,
          consent_text, consent_at)
        values ($1, $2, $3, $4, false, $5, $6, false, $7, case when $6 then now() end)
        on conflict (created_by_re_agent_id, lower(prospect_email_id)) do nothing returning id`,
    },
    attendee: {
      name: `${name}-attendee`,
      text: `insert into ${t.attendee} (open_house_id, prospect_id, guest_details, capture_device, client_request_id)
        values ($1, $2, $3, 'phone', $4) returning id`,
    },
    token: {
      name: `${name}-token`,
      text: `insert into ${t.token} (token_hash, prospect_id, open_house_id, attendee_id) values ($1, $2, $3, $4)`,
    },
    consent: {
      name: `${name}-consent`,
      text: `insert into ${t.consent} (re_agent_id, prospect_id, email, kind, source, detail)
        values ($1, $2, $3, 'email_opt_in', 'guest_sign_in', $4)`,
    },
    unsubscribe: {
      name: `${name}-unsubscribe`,
      text: `insert into ${t.unsubscribe} (token_hash, re_agent_id, prospect_id, email) values ($1, $2, $3, $4)`,
    },
    mail: {
      name: `${name}-mail`,
      text: `insert into ${t.mail} (to_address, subject, text_body, html_body, re_agent_id, from_name, reply_to,
          unsubscribe_url, waiting_for)
        values ($1, $2, $3, $4, $5, $6, $7, $8, 'job')`,
    },
    followUp: {
      name: `${name}-follow-up`,
      text: `insert into ${t.outbox} (queue, job_name, payload, run_at)
        values ('mail', 'followUp', $1, now() + interval '2 days')`,
    },
    /** Every row above in one statement: the physical limit of a round trip. */
    all: {
      name: `${name}-all`,
      text: `with oh as (
          select id, coalesce(hosting_re_agent_id, listing_re_agent_id) as owner from open_house
          where id = $1 and not open_house_canceled_flag
        ), p as (
          insert into ${t.prospect} (prospect_first_name, prospect_last_name, prospect_email_id,
            prospect_phone_number, working_with_re_agent_flag, created_by_re_agent_id, email_consent,
            sms_consent, consent_text, consent_at)
          select $2, $3, $4, $5, false, oh.owner, $6::boolean, false, $7, case when $6::boolean then now() end
          from oh
          on conflict (created_by_re_agent_id, lower(prospect_email_id)) do nothing
          returning id, created_by_re_agent_id as owner
        ), v as (
          insert into ${t.attendee} (open_house_id, prospect_id, guest_details, capture_device, client_request_id)
          select $1, p.id, $8, 'phone', $9 from p returning id, prospect_id
        ), tok as (
          insert into ${t.token} (token_hash, prospect_id, open_house_id, attendee_id)
          select $10, v.prospect_id, $1, v.id from v
        ), c as (
          insert into ${t.consent} (re_agent_id, prospect_id, email, kind, source, detail)
          select p.owner, p.id, $4, 'email_opt_in', 'guest_sign_in', $11 from p where $6::boolean
        ), u as (
          insert into ${t.unsubscribe} (token_hash, re_agent_id, prospect_id, email)
          select $12, p.owner, p.id, $4 from p where $6::boolean
        ), m as (
          insert into ${t.mail} (to_address, subject, text_body, html_body, re_agent_id, from_name, reply_to,
            unsubscribe_url, waiting_for)
          select $4, $13, $14, $15, p.owner, 'Bench Agent', 'agent@example.com', $16, 'job' from p where $6::boolean
        ), f as (
          insert into ${t.outbox} (queue, job_name, payload, run_at)
          select 'mail', 'followUp', jsonb_build_object('openHouseId', $1::bigint, 'prospectId', p.id),
            now() + interval '2 days'
          from p where $6::boolean
        )
        select v.id from v`,
    },
  }
}

const hash = (s: string) => createHash('sha256').update(s).digest('hex')
const thankYou = (body: Body) => ({
  subject: `Thank you for visiting ${ADDRESS}`,
  text: `Hi ${body.prospectFirstName}, thank you for visiting ${ADDRESS}. Reply to reach your agent.`,
  html: `<p>Hi ${body.prospectFirstName}, thank you for visiting ${ADDRESS}. Reply to reach your agent.</p>`,
})

/**
 * A sign-in with no policy, validation, events or rate limit: the open house read, the agent's
 * prospect, the visit, the guest's token for that visit and, for a guest who agreed to email, the
 * consent ledger's opt-in, an unsubscribe token, the thank-you and the follow-up two days on. One
 * transaction of prepared statements, a round trip each. Every guest here is new.
 */
export async function bareSignIn(pool: pg.Pool, body: Body, t: SignInTables = OUR_TABLES, name = 'bare') {
  const s = statements(t, name)
  const consent = body.emailConsent === true
  const client = await pool.connect()
  try {
    await client.query('begin')
    const oh = await client.query({ ...s.openHouse, values: [body.openHouseId] })
    const owner = oh.rows[0].owner
    const prospect = await client.query({
      ...s.prospect,
      values: [
        body.prospectFirstName,
        body.prospectLastName,
        body.prospectEmailId,
        body.prospectPhoneNumber,
        owner,
        consent,
        consent ? 'Email me about homes like this one.' : null,
      ],
    })
    const prospectId = prospect.rows[0].id
    const visit = await client.query({
      ...s.attendee,
      values: [body.openHouseId, prospectId, JSON.stringify(body), body.clientRequestId],
    })
    const visitId = visit.rows[0].id
    const token = randomBytes(32).toString('base64url')
    await client.query({ ...s.token, values: [hash(token), prospectId, body.openHouseId, visitId] })
    if (consent) {
      const mail = thankYou(body)
      const unsubscribe = randomBytes(24).toString('base64url')
      await client.query({ ...s.consent, values: [owner, prospectId, body.prospectEmailId, ADDRESS] })
      await client.query({
        ...s.unsubscribe,
        values: [hash(unsubscribe), owner, prospectId, body.prospectEmailId],
      })
      await client.query({
        ...s.mail,
        values: [
          body.prospectEmailId,
          mail.subject,
          mail.text,
          mail.html,
          owner,
          'Bench Agent',
          'agent@example.com',
          unsubscribe,
        ],
      })
      await client.query({
        ...s.followUp,
        values: [JSON.stringify({ openHouseId: body.openHouseId, prospectId })],
      })
    }
    await client.query('commit')
    return { data: { id: visitId, guestToken: token } }
  } catch (err) {
    await client.query('rollback')
    throw err
  } finally {
    client.release()
  }
}

/** The same rows as `bareSignIn`, in one prepared statement and one round trip (autocommit). */
export async function bareSignInOneStatement(
  pool: pg.Pool,
  body: Body,
  t: SignInTables = OUR_TABLES,
  name = 'bare',
) {
  const s = statements(t, name)
  const consent = body.emailConsent === true
  const token = randomBytes(32).toString('base64url')
  const mail = thankYou(body)
  const { rows } = await pool.query({
    ...s.all,
    values: [
      body.openHouseId,
      body.prospectFirstName,
      body.prospectLastName,
      body.prospectEmailId,
      body.prospectPhoneNumber,
      consent,
      consent ? 'Email me about homes like this one.' : null,
      JSON.stringify(body),
      body.clientRequestId,
      hash(token),
      ADDRESS,
      hash(randomBytes(24).toString('base64url')),
      mail.subject,
      mail.text,
      mail.html,
      randomBytes(24).toString('base64url'),
    ],
  })
  return { data: { id: rows[0]?.id, guestToken: token } }
}
