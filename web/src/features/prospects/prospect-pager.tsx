import { Button } from '../../ui/Button.tsx'
import { Select, SelectItem } from '../../ui/Select.tsx'
import { PAGE_SIZES } from './search.ts'

interface ProspectPagerProps {
  page: number
  size: number
  total: number
  onPage: (page: number) => void
  onSize: (size: number) => void
}

/** The list's page controls: where we are, Previous / Next, and the page size of SPEC §9. */
export function ProspectPager({ page, size, total, onPage, onSize }: ProspectPagerProps) {
  const pages = Math.max(1, Math.ceil(total / size))
  const first = total === 0 ? 0 : (page - 1) * size + 1
  const last = Math.min(total, page * size)
  return (
    <nav className="prospect-pager" aria-label="Prospect pages">
      <p className="prospect-pager__where" aria-live="polite">
        {total === 0 ? 'No prospects' : `Showing ${first}–${last} of ${total} · Page ${page} of ${pages}`}
      </p>
      <div className="prospect-pager__controls">
        <Select
          label="Per Page"
          value={String(size)}
          onChange={(key) => onSize(Number(key))}
          className="prospect-pager__size"
        >
          {PAGE_SIZES.map((n) => (
            <SelectItem key={n} id={String(n)}>
              {String(n)}
            </SelectItem>
          ))}
        </Select>
        <Button size="sm" onPress={() => onPage(page - 1)} isDisabled={page <= 1}>
          Previous<span className="visually-hidden"> page</span>
        </Button>
        <Button size="sm" onPress={() => onPage(page + 1)} isDisabled={page >= pages}>
          Next<span className="visually-hidden"> page</span>
        </Button>
      </div>
    </nav>
  )
}
