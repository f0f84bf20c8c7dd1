import { Spinner } from '../../ui/Spinner.tsx'
import { BillingToggle } from './billing-toggle.tsx'
import { PricingLayout } from './pricing-layout.tsx'

const placeholders = ['a', 'b', 'c']

/** Skeleton cards the size of real ones, so the plans arrive without moving the page. */
export function PricingPending() {
  return (
    <PricingLayout
      controls={
        <>
          <BillingToggle view="monthly" onChange={() => {}} isDisabled />
          <div className="pricing__hint">
            <Spinner label="Loading pricing plans…" />
          </div>
        </>
      }
    >
      <ul className="pricing__grid" aria-hidden="true">
        {placeholders.map((key) => (
          <li key={key}>
            <div className="card plan-card plan-card--skeleton">
              <span className="skeleton skeleton--title" />
              <span className="skeleton skeleton--price" />
              <span className="skeleton skeleton--line" />
              <span className="skeleton skeleton--block" />
              <span className="skeleton skeleton--block" />
            </div>
          </li>
        ))}
      </ul>
    </PricingLayout>
  )
}
