-- guest-sign-in: built once (db/compiled-once.ts), run with new values. Made by pnpm sql:update.
-- $1: openHouseId
-- $2: doorChecked
-- $3: openSince
-- $4: prospectFirstName
-- $5: prospectMiddleName
-- $6: prospectLastName
-- $7: prospectEmailId
-- $8: prospectPhoneNumber
-- $9: prospectAddress1
-- $10: prospectAddress2
-- $11: prospectCity
-- $12: prospectState
-- $13: prospectZipCode
-- $14: prospectZipPlus4
-- $15: prospectCounty
-- $16: prospectCountry
-- $17: currentHouseStatus
-- $18: homeBuyingTimelines
-- $19: bestTimeToContact
-- $20: heardAboutThisOpenHouse
-- $21: prospectNotification
-- $22: workingWithReAgentFlag
-- $23: emailConsent
-- $24: smsConsent
-- $25: consentText
-- $26: consentAt
-- $27: prospectEmailId
-- $28: clientRequestId
-- $29: guestDetails
-- $30: listingAgentConsent
-- $31: listingAgentConsent
-- $32: captureDevice
-- $33: capturedOffline
-- $34: customAnswers
-- $35: tokenHash
-- $36: welcomeTrace
-- $37: welcome
with "door" as (select "open_house"."id", "open_house"."listing_re_agent_id", "open_house"."hosting_re_agent_id", coalesce(open_house.hosting_re_agent_id, open_house.listing_re_agent_id) as "owner", coalesce(open_house.hosting_re_agent_id <> open_house.listing_re_agent_id, false) as "shares"
  from "open_house"
  where "open_house"."id" = $1
  and ($2::boolean
  or ((
  (open_house.published_at is not null
  or open_house.hosting_re_agent_id is not null)
  and not open_house.open_house_canceled_flag
  and (open_house.ends_at is null
  or open_house.ends_at >= $3::timestamptz))
  and not exists (select
  from integrated_agent
  where re_agent_id = any(array[open_house.listing_re_agent_id, open_house.hosting_re_agent_id]))))), "created" as (insert into "prospect" ("prospect_first_name", "prospect_middle_name", "prospect_last_name", "prospect_email_id", "prospect_phone_number", "prospect_address1", "prospect_address2", "prospect_city", "prospect_state", "prospect_zip_code", "prospect_zip_plus4", "prospect_county", "prospect_country", "current_house_status", "home_buying_timelines", "best_time_to_contact", "heard_about_this_open_house", "prospect_notification", "working_with_re_agent_flag", "email_consent", "sms_consent", "consent_text", "consent_at", "created_by_re_agent_id")
  select $4 as "prospect_first_name", $5 as "prospect_middle_name", $6 as "prospect_last_name", $7 as "prospect_email_id", $8 as "prospect_phone_number", $9 as "prospect_address1", $10 as "prospect_address2", $11 as "prospect_city", $12 as "prospect_state", $13 as "prospect_zip_code", $14 as "prospect_zip_plus4", $15 as "prospect_county", $16 as "prospect_country", $17 as "current_house_status", $18 as "home_buying_timelines", $19 as "best_time_to_contact", $20 as "heard_about_this_open_house", $21 as "prospect_notification", $22 as "working_with_re_agent_flag", $23 as "email_consent", $24 as "sms_consent", $25 as "consent_text", $26 as "consent_at", "door"."owner"
  from "door"
  on conflict (created_by_re_agent_id, lower(prospect_email_id)) do nothing
  returning "id"), "visitor" as (select "created"."id", true as "created"
  from "created"
  union all
  select "prospect"."id", false as "created"
  from "prospect"
  where "prospect"."created_by_re_agent_id" = (select owner
  from door)
  and lower(prospect.prospect_email_id) = lower($27::text)
  and not exists (select "created"."id"
  from "created")), "visit" as (insert into "open_house_attendee" ("open_house_id", "prospect_id", "client_request_id", "guest_details", "listing_agent_consent", "capture_device", "captured_offline", "custom_answers")
  select "door"."id" as "open_house_id", "visitor"."id", $28::uuid as "client_request_id", $29::jsonb || jsonb_build_object('listingAgentConsent', ($30::boolean
  and door.shares)) as "guest_details", ($31::boolean
  and door.shares) as "listing_agent_consent", $32 as "capture_device", $33 as "captured_offline", $34 as "custom_answers"
  from "visitor"
  cross
  join "door"
  returning "id", "prospect_id", "created_date", "open_house_id"), "token" as (insert into "guest_token" ("token_hash", "prospect_id", "open_house_id", "attendee_id")
  select $35 as "token_hash", "visit"."prospect_id", "visit"."open_house_id", "visit"."id"
  from "visit"), "welcome" as (insert into "guest_welcome" ("attendee_id", "trace")
  select "visit"."id", $36::jsonb as "trace"
  from "visit"
  where $37::boolean)
  select "visit"."id", "visit"."prospect_id", "visit"."created_date", "visitor"."created", "door"."listing_re_agent_id", "door"."hosting_re_agent_id"
  from "visit"
  cross
  join "visitor"
  cross
  join "door";
