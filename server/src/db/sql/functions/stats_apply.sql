-- stats_apply: as migrated. Made by pnpm sql:update.
CREATE OR REPLACE FUNCTION public.stats_apply(v_agent bigint[], v_pid bigint[], v_delta integer[], v_nr boolean[])
 RETURNS void
 LANGUAGE plpgsql
AS $function$
    declare
      r record;
      m record;
      cur bigint := null;
      n_vis bigint := 0;
      n_nr bigint := 0;
      t_agent bigint[] := '{}';
      t_pid bigint[] := '{}';
      t_delta integer[] := '{}';
      t_nr boolean[] := '{}';
    begin
      for r in
        select x.agent, x.pid, sum(x.delta)::int as delta, bool_and(x.nr) as nr
        from unnest(v_agent, v_pid, v_delta, v_nr) x(agent, pid, delta, nr)
        group by x.agent, x.pid having sum(x.delta) <> 0 order by x.agent, x.pid
      loop
        if cur is distinct from r.agent then
          if cur is not null then perform stats_add_visitors(cur, n_vis, n_nr); end if;
          cur := r.agent; n_vis := 0; n_nr := 0;
          perform pg_advisory_xact_lock_shared(4611686018427387904::bigint + cur);
        end if;
        select * into m from stats_visit(r.agent, r.pid, r.delta, r.nr);
        if m.moved <> 0 then
          n_vis := n_vis + m.moved;
          if m.moved_no_realtor then n_nr := n_nr + m.moved; end if;
          t_agent := t_agent || r.agent; t_pid := t_pid || r.pid;
          t_delta := t_delta || m.moved; t_nr := t_nr || m.moved_no_realtor;
        end if;
      end loop;
      if cur is not null then perform stats_add_visitors(cur, n_vis, n_nr); end if;

      cur := null; n_vis := 0; n_nr := 0;
      for r in
        select tp.re_team_id as team, x.pid, sum(x.delta)::int as delta, bool_and(x.nr) as nr
        from unnest(t_agent, t_pid, t_delta, t_nr) x(agent, pid, delta, nr)
        join team_person tp on tp.re_agent_id = x.agent
        group by tp.re_team_id, x.pid having sum(x.delta) <> 0 order by tp.re_team_id, x.pid
      loop
        if cur is distinct from r.team then
          if cur is not null then perform stats_team_add_visitors(cur, n_vis, n_nr); end if;
          cur := r.team; n_vis := 0; n_nr := 0;
        end if;
        select * into m from stats_team_visit(r.team, r.pid, r.delta, r.nr);
        if m.moved <> 0 then
          n_vis := n_vis + m.moved;
          if m.moved_no_realtor then n_nr := n_nr + m.moved; end if;
        end if;
      end loop;
      if cur is not null then perform stats_team_add_visitors(cur, n_vis, n_nr); end if;
    end $function$;
