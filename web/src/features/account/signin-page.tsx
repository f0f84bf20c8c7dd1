import { AuthenticateBody, messages } from '@porchlight/shared'
import { useQueryClient } from '@tanstack/react-query'
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import { ApiError, formFailure } from '../../api/client.ts'
import { Alert } from '../../ui/Alert.tsx'
import { Button } from '../../ui/Button.tsx'
import { Form, FormActions } from '../../ui/Form.tsx'
import { FormPage } from '../../ui/form-page.tsx'
import { Link } from '../../ui/Link.tsx'
import { PasswordField } from '../../ui/PasswordField.tsx'
import { useForm } from '../../ui/use-form.ts'
import { setFlash, useFlashWithEmail } from '../session/flash.ts'
import { goAfterSignIn, rememberSignIn } from '../session/sign-in.ts'
import { EmailIdField } from './email-id-field.tsx'
import { useAuthenticateMutation } from './queries.ts'
import './account.css'

const routeApi = getRouteApi('/signin')

/** SPEC /signin: email, password with show/hide, 'Forgot Password?', 'Sign In'/'Authenticating...'. */
export function SigninPage() {
  const { session, redirect } = routeApi.useSearch()
  const flash = useFlashWithEmail()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const authenticate = useAuthenticateMutation()
  const form = useForm({ porchlightUserEmailId: flash?.email ?? '', porchlightUserPass: '' })
  const { values, errors, setValue } = form
  /** The server's words when it paused password sign-ins (429): the way in is a temporary password. */
  const [paused, setPaused] = useState<string | null>(null)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const body = form.parse(AuthenticateBody)
    if (!body) return
    setPaused(null)
    authenticate.mutate(body, {
      onSuccess: (result) => {
        rememberSignIn(queryClient, result)
        void goAfterSignIn(navigate, result, redirect)
      },
      onError: (error) => {
        if (error instanceof ApiError && error.status === 429) setPaused(error.message)
        else form.showError(formFailure(error, messages.authenticatingUserFailed))
      },
    })
  }

  const askForTemporaryPassword = () => {
    setFlash('', values.porchlightUserEmailId)
    void navigate({ to: '/forgotPassword' })
  }

  return (
    <FormPage title="Sign In" lede="Welcome back. Sign in to manage your open houses, leads and teams.">
      <Form ref={form.formRef} onSubmit={submit} aria-label="Sign In">
        {flash && <Alert tone="success" title={flash.message} />}
        {session === 'expired' && <Alert tone="info" title={messages.sessionExpired} />}
        {form.formError && <Alert tone="error" title={form.formError} />}
        {paused && (
          <Alert
            tone="error"
            title="Sign-in with a password is paused"
            actions={
              <Button variant="primary" onPress={askForTemporaryPassword}>
                Email me a temporary password
              </Button>
            }
          >
            <p>{paused}</p>
            <p>A temporary password goes only to the account's email, and it signs you in even now.</p>
          </Alert>
        )}
        <EmailIdField form={form} autoComplete="username" />
        <PasswordField
          label="Password"
          name="porchlightUserPass"
          canReveal
          isRequired
          value={values.porchlightUserPass}
          onChange={(value) => setValue('porchlightUserPass', value)}
          errorMessage={errors.porchlightUserPass}
        />
        <FormActions>
          <Link to="/forgotPassword" variant="button-secondary">
            Forgot Password?
          </Link>
          <Button type="submit" variant="primary" isPending={authenticate.isPending}>
            {authenticate.isPending ? 'Authenticating...' : 'Sign In'}
          </Button>
        </FormActions>
        <p className="form__note">
          New to Porchlight? <Link to="/signup">Sign Up</Link>
        </p>
      </Form>
    </FormPage>
  )
}
