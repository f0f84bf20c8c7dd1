import type { PlanView } from '@porchlight/shared'
import { ToggleButton, ToggleButtonGroup } from '../../ui/ToggleButtonGroup.tsx'

interface BillingToggleProps {
  view: PlanView
  onChange: (view: PlanView) => void
  isDisabled?: boolean
}

/** Monthly/Annual switch (SPEC §4: starts on Monthly). A radiogroup named 'Billing period'. */
export function BillingToggle({ view, onChange, isDisabled }: BillingToggleProps) {
  return (
    <ToggleButtonGroup
      aria-label="Billing period"
      selectionMode="single"
      disallowEmptySelection
      isDisabled={isDisabled}
      selectedKeys={[view]}
      onSelectionChange={(keys) => {
        const [next] = keys
        if (next === 'monthly' || next === 'annual') onChange(next)
      }}
    >
      <ToggleButton id="monthly">Monthly</ToggleButton>
      <ToggleButton id="annual">Annual</ToggleButton>
    </ToggleButtonGroup>
  )
}
