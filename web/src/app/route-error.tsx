import { messages } from '@porchlight/shared'
import { useQueryErrorResetBoundary } from '@tanstack/react-query'
import { type ErrorComponentProps, useRouter } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { ApiError, UNEXPECTED_ERROR } from '../api/client.ts'
import { Alert } from '../ui/Alert.tsx'
import { Button } from '../ui/Button.tsx'
import { Spinner } from '../ui/Spinner.tsx'
import { useDocumentTitle } from '../ui/use-document-title.ts'

function isLicenseInvalid(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'LICENSE_INVALID'
}

/** SPEC §1: what an agent with an invalid license sees instead of Dashboard, Open Houses or My Stuff. */
function LicenseInvalid() {
  useDocumentTitle('License not valid')
  return (
    <section className="page page--narrow" aria-labelledby="license-title">
      <h1 id="license-title" className="visually-hidden">
        License not valid
      </h1>
      <Alert tone="error" title={messages.licenseNotValid} />
    </section>
  )
}

/**
 * Every route's error view: the license text for 403 LICENSE_INVALID (SPEC §1, from any load), else
 * what went wrong with a Retry that runs the failed loads again.
 */
export function RouteError({ error }: ErrorComponentProps) {
  const router = useRouter()
  const queryErrors = useQueryErrorResetBoundary()
  const [retrying, setRetrying] = useState(false)

  useEffect(() => queryErrors.reset(), [queryErrors])

  if (isLicenseInvalid(error)) return <LicenseInvalid />

  const retry = async () => {
    setRetrying(true)
    try {
      await router.invalidate()
    } finally {
      setRetrying(false)
    }
  }

  const known = error instanceof ApiError && (error.code === 'NETWORK' || error.status < 500)
  return (
    <section className="page page--narrow">
      <Alert
        tone="error"
        title="This page couldn't be loaded."
        actions={
          <Button variant="primary" isPending={retrying} onPress={retry}>
            Retry
          </Button>
        }
      >
        {known ? error.message : UNEXPECTED_ERROR}
      </Alert>
    </section>
  )
}

/** Shown while a route's guard or loader waits on the network (after a short delay). */
export function RoutePending() {
  return (
    <div className="page">
      <Spinner label="Loading…" />
    </div>
  )
}
