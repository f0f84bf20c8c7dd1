/** SPEC §4 "Team is active or inactive", as text plus colour (DESIGN.md "Look and feel"). */
export function TeamStatus({ active }: { active: boolean }) {
  return (
    <span className={active ? 'status status--ok' : 'status status--muted'}>
      {active ? 'Active' : 'Inactive'}
    </span>
  )
}
