import { messages } from '@porchlight/shared'
import type { ErrorComponentProps } from '@tanstack/react-router'
import { ApiError, UNEXPECTED_ERROR } from '../api/client.ts'
import { Alert } from '../ui/Alert.tsx'
import { RetryAlert } from '../ui/retry-alert.tsx'
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
  if (isLicenseInvalid(error)) return <LicenseInvalid />
  const known = error instanceof ApiError && (error.code === 'NETWORK' || error.status < 500)
  return (
    <section className="page page--narrow">
      <RetryAlert title="This page couldn't be loaded.">
        {known ? error.message : UNEXPECTED_ERROR}
      </RetryAlert>
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
