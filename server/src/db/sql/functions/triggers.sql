-- Every trigger, as migrated. Made by pnpm sql:update.
CREATE TRIGGER stats_open_house_changed AFTER INSERT OR UPDATE OF listing_re_agent_id, hosting_re_agent_id, open_house_canceled_flag ON public.open_house FOR EACH ROW EXECUTE FUNCTION stats_open_house_changed();
CREATE TRIGGER stats_open_house_deleted BEFORE DELETE ON public.open_house FOR EACH ROW EXECUTE FUNCTION stats_open_house_changed();
CREATE TRIGGER stats_attendee_changed AFTER UPDATE OF open_house_id, prospect_id ON public.open_house_attendee FOR EACH ROW WHEN (((old.open_house_id <> new.open_house_id) OR (old.prospect_id <> new.prospect_id))) EXECUTE FUNCTION stats_attendee_changed();
CREATE TRIGGER stats_visits_added AFTER INSERT ON public.open_house_attendee REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION stats_visits_added();
CREATE TRIGGER stats_visits_removed AFTER DELETE ON public.open_house_attendee REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION stats_visits_removed();
CREATE TRIGGER stats_prospect_realtor_changed AFTER UPDATE OF working_with_re_agent_flag ON public.prospect FOR EACH ROW WHEN ((old.working_with_re_agent_flag IS DISTINCT FROM new.working_with_re_agent_flag)) EXECUTE FUNCTION stats_prospect_realtor_changed();
CREATE TRIGGER re_agent_access_changed AFTER INSERT OR DELETE OR UPDATE ON public.re_agent FOR EACH STATEMENT EXECUTE FUNCTION notify_access_changed();
CREATE TRIGGER re_agent_firm_license_changed BEFORE UPDATE OF re_agent_broker_firm_license ON public.re_agent FOR EACH ROW EXECUTE FUNCTION re_agent_firm_license_changed();
CREATE TRIGGER re_team_access_changed AFTER INSERT OR DELETE OR UPDATE ON public.re_team FOR EACH STATEMENT EXECUTE FUNCTION notify_access_changed();
CREATE TRIGGER stats_team_changed AFTER INSERT OR DELETE OR UPDATE OF re_team_lead_id, re_co_team_lead_id ON public.re_team FOR EACH ROW EXECUTE FUNCTION stats_team_changed();
CREATE TRIGGER re_team_member_access_changed AFTER INSERT OR DELETE OR UPDATE ON public.re_team_member FOR EACH STATEMENT EXECUTE FUNCTION notify_access_changed();
CREATE TRIGGER stats_team_member_changed AFTER INSERT OR DELETE OR UPDATE OF re_team_id, re_agent_id, re_agent_current_flag, invitation_status ON public.re_team_member FOR EACH ROW EXECUTE FUNCTION stats_team_member_changed();
CREATE TRIGGER session_changed AFTER UPDATE ON public.session FOR EACH ROW WHEN (((old.recovery IS DISTINCT FROM new.recovery) OR (old.user_id IS DISTINCT FROM new.user_id) OR (new.expires_at < old.expires_at))) EXECUTE FUNCTION notify_access_changed();
CREATE TRIGGER session_ended AFTER DELETE ON public.session FOR EACH STATEMENT EXECUTE FUNCTION notify_access_changed();
