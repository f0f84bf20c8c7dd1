-- sessions-with-agents: built once (db/compiled-once.ts), run with new values. Made by pnpm sql:update.
-- $1: ids
select "re_agent".*, "session"."id" as "session_id", "session"."user_id" as "session_user_id", "session"."expires_at" as "session_expires_at", "session"."recovery" as "session_recovery"
  from "session"
  left
  join "re_agent" on "re_agent"."porchlight_user_id" = "session"."user_id"
  where session.id = any($1);
