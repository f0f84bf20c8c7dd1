-- attendee-insert: built once (db/compiled-once.ts), run with new values. Made by pnpm sql:update.
-- $1: openHouseId
-- $2: prospectId
-- $3: guestDetails
-- $4: listingAgentConsent
-- $5: captureDevice
-- $6: capturedOffline
-- $7: customAnswers
-- $8: openHouseId
-- $9: prospectId
insert into "open_house_attendee" ("open_house_id", "prospect_id", "guest_details", "listing_agent_consent", "capture_device", "captured_offline", "custom_answers")
  select $1 as "open_house_id", $2 as "prospect_id", $3 as "guest_details", $4 as "listing_agent_consent", $5 as "capture_device", $6 as "captured_offline", $7 as "custom_answers"
  where not exists (select "id"
  from "open_house_attendee"
  where "open_house_id" = $8
  and "prospect_id" = $9)
  on conflict ("prospect_id", "open_house_id")
  where "client_request_id" is null do nothing
  returning "id", "created_date";
