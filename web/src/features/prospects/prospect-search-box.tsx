import { PROSPECT_SEARCH_MIN_LENGTH } from '@porchlight/shared'
import { TextField } from '../../ui/TextField.tsx'

/** The name search of SPEC §5: runs from 3 characters on; clearing restores the full list. */
export function ProspectSearchBox({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const short = value.trim().length > 0 && value.trim().length < PROSPECT_SEARCH_MIN_LENGTH
  return (
    <TextField
      label="Search Prospects"
      type="search"
      placeholder="Start typing the prospect name…"
      description={
        short
          ? `Type at least ${PROSPECT_SEARCH_MIN_LENGTH} characters of a first or last name.`
          : 'Start typing the prospect name (first or last, 3 characters or more).'
      }
      value={value}
      onChange={onChange}
      className="prospect-search"
    />
  )
}
