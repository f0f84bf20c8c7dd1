import type { ErrorComponentProps } from '@tanstack/react-router'
import { ApiError } from '../../api/client.ts'
import { RetryAlert } from '../../ui/retry-alert.tsx'
import { PricingLayout } from './pricing-layout.tsx'

export function PricingError({ error }: ErrorComponentProps) {
  const offline = error instanceof ApiError && error.code === 'NETWORK'
  return (
    <PricingLayout>
      <RetryAlert title="Error in getting the offered Pricing Plans!">
        {offline ? error.message : 'Something went wrong on our side. Please try again in a moment.'}
      </RetryAlert>
    </PricingLayout>
  )
}
