import { type ReactNode, useId } from 'react'
import { cx } from './cx.ts'
import { useDocumentTitle } from './use-document-title.ts'
import './form-page.css'

interface FormPageProps {
  /** The page's h1 and tab title, e.g. SPEC's 'Porchlight User Signup'. */
  title: string
  eyebrow?: string
  lede?: ReactNode
  /** Wide pages hold two-column forms (agent profile); the rest stay narrow. */
  wide?: boolean
  children: ReactNode
}

/** The frame of every account screen: a heading and one card holding the form or message. */
export function FormPage({ title, eyebrow, lede, wide = false, children }: FormPageProps) {
  const titleId = useId()
  useDocumentTitle(title)
  return (
    <section className={cx('page form-page', !wide && 'page--narrow')} aria-labelledby={titleId}>
      <header className="form-page__header">
        {eyebrow && <p className="eyebrow">{eyebrow}</p>}
        <h1 id={titleId}>{title}</h1>
        {lede && <p className="lede">{lede}</p>}
      </header>
      <div className="card form-page__card">{children}</div>
    </section>
  )
}
