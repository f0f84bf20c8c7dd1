import type { ReactNode } from 'react'
import { useDocumentTitle } from '../../ui/use-document-title.ts'
import './pricing.css'

interface PricingLayoutProps {
  /** The billing toggle and its hint; the pending view shows the same row so nothing moves. */
  controls?: ReactNode
  children: ReactNode
}

/** The frame shared by the plans, their loading skeleton and the error, so switching never shifts layout. */
export function PricingLayout({ controls, children }: PricingLayoutProps) {
  useDocumentTitle('Pricing plans')
  return (
    <section className="page pricing" aria-labelledby="pricing-title">
      <header className="pricing__header">
        <p className="eyebrow">Pricing</p>
        <h1 id="pricing-title">Pricing plans</h1>
        <p className="lede">
          Always free for SOLO agents. Upgrade when you want more open houses, publish requests and a team.
        </p>
        {controls && <div className="pricing__controls">{controls}</div>}
      </header>
      {children}
    </section>
  )
}
