import { useQueryErrorResetBoundary } from '@tanstack/react-query'
import { useRouter } from '@tanstack/react-router'
import { type ReactNode, useEffect, useState } from 'react'
import { Alert } from './Alert.tsx'
import { Button } from './Button.tsx'

/** A route's failed load: what went wrong, and a Retry that runs the failed loads (and queries) again. */
export function RetryAlert({ title, children }: { title: string; children: ReactNode }) {
  const router = useRouter()
  const queryErrors = useQueryErrorResetBoundary()
  const [retrying, setRetrying] = useState(false)

  // Let the failed queries run again when the loaders are retried.
  useEffect(() => queryErrors.reset(), [queryErrors])

  const retry = async () => {
    setRetrying(true)
    try {
      await router.invalidate()
    } finally {
      setRetrying(false)
    }
  }

  return (
    <Alert
      tone="error"
      title={title}
      actions={
        <Button variant="primary" isPending={retrying} onPress={retry}>
          Retry
        </Button>
      }
    >
      {children}
    </Alert>
  )
}
