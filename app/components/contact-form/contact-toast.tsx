/** The outcome toast: loaded only when a JavaScript submission finishes, so it stays off the page's first download. */
import Toast from "react-bootstrap/Toast";
import ToastContainer from "react-bootstrap/ToastContainer";
import { toastAutohideMs } from "../../lib/widget-defaults";

export interface ContactToastProps {
  kind: "success" | "error";
  title: string;
  detail: string;
  closeLabel: string;
  onClose(): void;
}

export default function ContactToast({ kind, title, detail, closeLabel, onClose }: ContactToastProps) {
  return (
    <ToastContainer className="contact-toasts p-3">
      <Toast show onClose={onClose} autohide delay={toastAutohideMs} bg={kind === "error" ? "danger" : "success"}>
        <Toast.Header closeLabel={closeLabel}>
          <strong className="me-auto">{title}</strong>
        </Toast.Header>
        <Toast.Body className="text-white">{detail}</Toast.Body>
      </Toast>
    </ToastContainer>
  );
}
