import { type ReactNode, useLayoutEffect, useRef, useState } from 'react'
import {
  Modal as AriaModal,
  Dialog,
  Heading,
  ModalOverlay,
  type ModalOverlayProps,
} from 'react-aria-components'
import { Button } from './Button.tsx'
import './Modal.css'

export interface ConfirmDialogProps extends Pick<ModalOverlayProps, 'isOpen' | 'onOpenChange'> {
  title: string
  /** The question, e.g. SPEC §5 'Are you sure to add this Pricing Plan?'. */
  children: ReactNode
  confirmLabel?: string
  cancelLabel?: string
  onConfirm: () => void
  /** While the confirmed action runs the dialog stays open and cannot be dismissed. */
  isPending?: boolean
  /** An error from the confirmed action, shown inside the dialog so it can be retried. */
  error?: ReactNode
}

/** A modal alert dialog asking to confirm an action; focus is trapped and returns to the trigger. */
export function ConfirmDialog({
  isOpen,
  onOpenChange,
  title,
  children,
  confirmLabel = 'Yes',
  cancelLabel = 'No',
  onConfirm,
  isPending = false,
  error,
}: ConfirmDialogProps) {
  return (
    <ModalOverlay
      isOpen={isOpen}
      onOpenChange={onOpenChange}
      isDismissable={!isPending}
      isKeyboardDismissDisabled={isPending}
      className="modal-overlay"
    >
      <AriaModal className="modal">
        <Dialog role="alertdialog" className="modal__dialog">
          {({ close }) => (
            <>
              <Heading slot="title" className="modal__title">
                {title}
              </Heading>
              <div className="modal__body">{children}</div>
              {error}
              <div className="modal__actions">
                <Button variant="secondary" onPress={close} isDisabled={isPending}>
                  {cancelLabel}
                </Button>
                <Button variant="primary" onPress={onConfirm} isPending={isPending} autoFocus>
                  {confirmLabel}
                </Button>
              </div>
            </>
          )}
        </Dialog>
      </AriaModal>
    </ModalOverlay>
  )
}

export interface ModalDialogProps extends Pick<ModalOverlayProps, 'isOpen' | 'onOpenChange'> {
  title: ReactNode
  children: ReactNode
  /** Buttons beside Close at the bottom. */
  actions?: ReactNode
  /** Wide dialogs hold details; the default is a narrow one. */
  size?: 'md' | 'lg'
}

/**
 * A modal dialog showing something (open house details, a QR code) with a Close button. Escape and a
 * click outside close it; focus is trapped inside and returns to the trigger.
 */
export function ModalDialog({
  isOpen,
  onOpenChange,
  title,
  children,
  actions,
  size = 'md',
}: ModalDialogProps) {
  return (
    <ModalOverlay isOpen={isOpen} onOpenChange={onOpenChange} isDismissable className="modal-overlay">
      <AriaModal className={size === 'lg' ? 'modal modal--lg' : 'modal'}>
        <Dialog className="modal__dialog">
          {({ close }) => (
            <>
              <Heading slot="title" className="modal__title">
                {title}
              </Heading>
              <ScrollingContent label={typeof title === 'string' ? title : undefined}>
                {children}
              </ScrollingContent>
              <div className="modal__actions">
                {actions}
                <Button variant="secondary" onPress={close}>
                  Close
                </Button>
              </div>
            </>
          )}
        </Dialog>
      </AriaModal>
    </ModalOverlay>
  )
}

const overflowing = (el: HTMLElement) => el.scrollHeight > el.clientHeight + 1

/**
 * The dialog's body, which scrolls when it is taller than the screen leaves room for. While it does, it
 * takes focus in the tab order so a keyboard can scroll it too (WCAG 2.1.1); a body that fits adds no
 * tab stop.
 */
function ScrollingContent({ label, children }: { label?: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null)
  const [overflows, setOverflows] = useState(false)
  // After every render (the content may have grown) and whenever the window resizes it.
  useLayoutEffect(() => {
    if (ref.current) setOverflows(overflowing(ref.current))
  })
  useLayoutEffect(() => {
    const el = ref.current
    if (!el) return
    const observer = new ResizeObserver(() => setOverflows(overflowing(el)))
    observer.observe(el)
    return () => observer.disconnect()
  }, [])
  return (
    <div
      ref={ref}
      className="modal__content"
      {...(overflows ? { tabIndex: 0, ...(label ? { role: 'region', 'aria-label': label } : {}) } : {})}
    >
      {children}
    </div>
  )
}
