import type { ReactNode } from 'react'
import { Modal as AriaModal, Dialog, Heading, ModalOverlay } from 'react-aria-components'
import { Button } from './Button.tsx'
import './Modal.css'

export interface StaticDialogProps {
  isOpen: boolean
  onClose: () => void
  title: ReactNode
  children: ReactNode
  size?: 'md' | 'lg'
}

/**
 * A modal with a static backdrop: neither a click outside nor Escape closes it, only its Close
 * button (SPEC §2 Prospect Details modal). Focus is trapped inside and returns to the trigger.
 */
export function StaticDialog({ isOpen, onClose, title, children, size = 'lg' }: StaticDialogProps) {
  return (
    <ModalOverlay
      isOpen={isOpen}
      onOpenChange={(open) => !open && onClose()}
      isDismissable={false}
      isKeyboardDismissDisabled
      className="modal-overlay"
    >
      <AriaModal className={size === 'lg' ? 'modal modal--lg' : 'modal'}>
        <Dialog className="modal__dialog">
          <Heading slot="title" className="modal__title">
            {title}
          </Heading>
          <div className="modal__content">{children}</div>
          <div className="modal__actions">
            <Button variant="secondary" onPress={onClose}>
              Close
            </Button>
          </div>
        </Dialog>
      </AriaModal>
    </ModalOverlay>
  )
}
