-- guest-sign-in: built once (db/compiled-once.ts), run with new values. Made by pnpm sql:update.
-- $1: prospectFirstName
-- $2: prospectMiddleName
-- $3: prospectLastName
-- $4: prospectEmailId
-- $5: prospectPhoneNumber
-- $6: prospectAddress1
-- $7: prospectAddress2
-- $8: prospectCity
-- $9: prospectState
-- $10: prospectZipCode
-- $11: prospectZipPlus4
-- $12: prospectCounty
-- $13: prospectCountry
-- $14: currentHouseStatus
-- $15: homeBuyingTimelines
-- $16: bestTimeToContact
-- $17: heardAboutThisOpenHouse
-- $18: prospectNotification
-- $19: workingWithReAgentFlag
-- $20: createdByReAgentId
-- $21: emailConsent
-- $22: smsConsent
-- $23: consentText
-- $24: consentAt
-- $25: createdByReAgentId
-- $26: prospectEmailId
-- $27: openHouseId
-- $28: clientRequestId
-- $29: guestDetails
-- $30: listingAgentConsent
-- $31: captureDevice
-- $32: capturedOffline
-- $33: customAnswers
-- $34: tokenHash
-- $35: openHouseId
-- $36: welcomeTrace
-- $37: welcome
with "created" as (insert into "prospect" ("prospect_first_name", "prospect_middle_name", "prospect_last_name", "prospect_email_id", "prospect_phone_number", "prospect_address1", "prospect_address2", "prospect_city", "prospect_state", "prospect_zip_code", "prospect_zip_plus4", "prospect_county", "prospect_country", "current_house_status", "home_buying_timelines", "best_time_to_contact", "heard_about_this_open_house", "prospect_notification", "working_with_re_agent_flag", "created_by_re_agent_id", "email_consent", "sms_consent", "consent_text", "consent_at")
  values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24)
  on conflict (created_by_re_agent_id, lower(prospect_email_id)) do nothing
  returning "id"), "visitor" as (select "created"."id", true as "created"
  from "created"
  union all
  select "prospect"."id", false as "created"
  from "prospect"
  where "prospect"."created_by_re_agent_id" = $25
  and lower(prospect.prospect_email_id) = lower($26::text)
  and not exists (select "created"."id"
  from "created")), "visit" as (insert into "open_house_attendee" ("open_house_id", "prospect_id", "client_request_id", "guest_details", "listing_agent_consent", "capture_device", "captured_offline", "custom_answers")
  select $27 as "open_house_id", "visitor"."id", $28::uuid as "client_request_id", $29 as "guest_details", $30 as "listing_agent_consent", $31 as "capture_device", $32 as "captured_offline", $33 as "custom_answers"
  from "visitor"
  returning "id", "prospect_id", "created_date"), "token" as (insert into "guest_token" ("token_hash", "prospect_id", "open_house_id", "attendee_id")
  select $34 as "token_hash", "visit"."prospect_id", $35 as "open_house_id", "visit"."id"
  from "visit"), "welcome" as (insert into "guest_welcome" ("attendee_id", "trace")
  select "visit"."id", $36::jsonb as "trace"
  from "visit"
  where $37::boolean)
  select "visit"."id", "visit"."prospect_id", "visit"."created_date", "visitor"."created"
  from "visit"
  cross
  join "visitor";
