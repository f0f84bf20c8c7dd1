const usDate = new Intl.DateTimeFormat('en-US', {
  month: '2-digit',
  day: '2-digit',
  year: 'numeric',
  timeZone: 'UTC',
})

/**
 * A date as SPEC §5 shows them, MM/dd/yyyy. A bare 'YYYY-MM-DD' is a calendar date and is shown as
 * is; a timestamp is shown in the viewer's own time zone.
 */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—'
  const calendarDate = /^\d{4}-\d{2}-\d{2}$/.test(iso)
  const date = new Date(calendarDate ? `${iso}T00:00:00Z` : iso)
  if (Number.isNaN(date.getTime())) return iso
  if (calendarDate) return usDate.format(date)
  return date.toLocaleDateString('en-US', { month: '2-digit', day: '2-digit', year: 'numeric' })
}

/** '10:42 PM': when something happened today, e.g. the last time data arrived. */
export function clockTime(at: number): string {
  return new Date(at).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' })
}
