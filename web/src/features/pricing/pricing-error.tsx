import { useQueryErrorResetBoundary } from '@tanstack/react-query'
import { type ErrorComponentProps, useRouter } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { ApiError } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { PricingLayout } from './pricing-layout.tsx'

export function PricingError({ error }: ErrorComponentProps) {
  const router = useRouter()
  const queryErrors = useQueryErrorResetBoundary()
  const [retrying, setRetrying] = useState(false)

  // Let the failed query run again when the loader is retried.
  useEffect(() => queryErrors.reset(), [queryErrors])

  const retry = async () => {
    setRetrying(true)
    try {
      await router.invalidate()
    } finally {
      setRetrying(false)
    }
  }

  const offline = error instanceof ApiError && error.code === 'NETWORK'
  return (
    <PricingLayout>
      <Alert
        tone="error"
        title="Error in getting the offered Pricing Plans!"
        actions={
          <Button variant="primary" isPending={retrying} onPress={retry}>
            Retry
          </Button>
        }
      >
        {offline ? error.message : 'Something went wrong on our side. Please try again in a moment.'}
      </Alert>
    </PricingLayout>
  )
}
