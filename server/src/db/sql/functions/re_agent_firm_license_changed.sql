-- re_agent_firm_license_changed: as migrated. Made by pnpm sql:update.
CREATE OR REPLACE FUNCTION public.re_agent_firm_license_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      if new.re_agent_broker_firm_license is distinct from old.re_agent_broker_firm_license then
        new.firm_membership_status := 'pending';
        new.firm_membership_decided_by_re_agent_id := null;
        new.firm_membership_decided_at := null;
        if new.re_agent_role <> 'Real Estate Agent' then
          insert into re_agent_role_grant (re_agent_id, re_agent_role, previous_role, reason)
          values (new.id, 'Real Estate Agent', new.re_agent_role, 'firm-changed');
          new.re_agent_role := 'Real Estate Agent';
        end if;
      end if;
      return new;
    end $function$;
