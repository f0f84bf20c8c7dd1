import { Link } from './Link.tsx'
import { useDocumentTitle } from './use-document-title.ts'

export function NotFound() {
  useDocumentTitle('Page not found')
  return (
    <section className="page page--narrow not-found" aria-labelledby="not-found-title">
      <p className="eyebrow">404</p>
      <h1 id="not-found-title">Page not found</h1>
      <p className="lede">
        There is nothing at this address. It may have moved, or the link may be mistyped.
      </p>
      <p>
        <Link to="/" variant="button-primary">
          Go to the home page
        </Link>
      </p>
    </section>
  )
}
