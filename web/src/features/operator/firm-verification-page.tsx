import { type Agent, FirmVerificationRequest } from '@porchlight/shared'
import { type FormEvent, useCallback, useEffect, useState } from 'react'
import { z } from 'zod'
import { apiRequest, errorMessage } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { formatDate } from '../../ui/format.ts'

/** Kept for this tab only: the operator's token never goes to localStorage. */
const TOKEN_KEY = 'porchlight.operatorToken'

const asOperator = (token: string) => ({ auth: false, headers: { Authorization: `Bearer ${token}` } })

/**
 * The operator's page (/admin/firm-verification): the agents not verified who asked Porchlight to
 * verify their firm membership, oldest first, each with Verify (POST /api/admin/verifyFirmMember). It
 * works with ADMIN_TOKEN, typed here; a wrong token, or none set on the server, finds nothing.
 */
export function FirmVerificationPage() {
  const [token, setToken] = useState(() => sessionStorage.getItem(TOKEN_KEY) ?? '')
  const [typed, setTyped] = useState('')
  const [requests, setRequests] = useState<FirmVerificationRequest[] | null>(null)
  const [notice, setNotice] = useState<{ tone: 'error' | 'success'; text: string } | null>(null)
  const [busy, setBusy] = useState<number | null>(null)

  const load = useCallback(async (t: string) => {
    try {
      setRequests(
        await apiRequest('/admin/firmVerificationRequests', {
          schema: z.array(FirmVerificationRequest),
          ...asOperator(t),
        }),
      )
    } catch (error) {
      setRequests(null)
      setNotice({ tone: 'error', text: errorMessage(error, 'The requests could not be loaded.') })
    }
  }, [])

  useEffect(() => {
    if (token) void load(token)
  }, [token, load])

  const signIn = (event: FormEvent) => {
    event.preventDefault()
    setNotice(null)
    sessionStorage.setItem(TOKEN_KEY, typed)
    setToken(typed)
  }

  const verify = async (r: FirmVerificationRequest) => {
    setBusy(r.reAgentId)
    setNotice(null)
    try {
      await apiRequest<Agent>(`/admin/verifyFirmMember/${r.reAgentId}`, {
        method: 'POST',
        schema: z.any(),
        ...asOperator(token),
      })
      setNotice({
        tone: 'success',
        text: `${r.reAgentFullName} is now verified at ${r.reAgentBrokerFirmName}.`,
      })
      await load(token)
    } catch (error) {
      setNotice({ tone: 'error', text: errorMessage(error, 'The agent could not be verified.') })
    } finally {
      setBusy(null)
    }
  }

  return (
    <main className="page" id="main">
      <h1>Firm verification requests</h1>
      {notice && <Alert tone={notice.tone} title={notice.text} />}
      {!token || requests === null ? (
        <form onSubmit={signIn} className="form">
          <label htmlFor="operator-token">Operator token (ADMIN_TOKEN)</label>
          <input
            id="operator-token"
            type="password"
            autoComplete="off"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
          />
          <Button type="submit" variant="primary">
            Show requests
          </Button>
        </form>
      ) : requests.length === 0 ? (
        <p>No agent is waiting to be verified.</p>
      ) : (
        <ul className="operator-requests">
          {requests.map((r) => (
            <li key={r.reAgentId} className="operator-requests__item">
              <h2>{r.reAgentFullName}</h2>
              <p>
                {r.reAgentEmailId} · {r.reAgentBrokerFirmName}, license {r.reAgentBrokerFirmLicense} ·{' '}
                {r.firmMembershipStatus === 'declined' ? 'Declined by its firm' : 'Pending'} · asked{' '}
                {formatDate(r.requestedAt)}
              </p>
              <Button variant="primary" onPress={() => void verify(r)} isPending={busy === r.reAgentId}>
                Verify {r.reAgentFullName}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </main>
  )
}
