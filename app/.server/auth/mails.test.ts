import { describe, expect, it } from "vitest";
import { invitationMail, newDeviceMail, passwordResetMail } from "./mails.ts";

const invitation = {
  organizationName: "Acme <Legal>",
  inviterName: null,
  url: "https://x.test/app/invite/t",
  role: "admin",
};

describe("platform mails", () => {
  it("invite in Spanish addressing the reader as tú, with the role in Spanish and the name escaped in HTML", () => {
    const mail = invitationMail("es", invitation);
    expect(mail.subject).toBe("Invitación a Acme <Legal> en Vigía Normativo");
    expect(mail.text).toContain("Un administrador te invita a Acme <Legal> en Vigía Normativo (rol: administrador).");
    expect(mail.text).toContain("Si no esperabas esta invitación, ignora este correo.");
    expect(mail.text).toContain("Aceptar la invitación: https://x.test/app/invite/t");
    expect(mail.html).toContain("Acme &#60;Legal&#62;");
    expect(mail.html).not.toContain("<Legal>");
  });

  it("say the same in English as before the catalog held them", () => {
    const mail = invitationMail("en", { ...invitation, inviterName: "Ana" });
    expect(mail.subject).toBe("Invitation to Acme <Legal> on Vigía Normativo");
    expect(mail.text).toBe(
      "Ana invites you to Acme <Legal> on Vigía Normativo (role: admin).\n\n" +
        "Open the link to choose your name and password, then set up a second factor. The link is valid for 7 days and can be used once.\n\n" +
        "If you were not expecting this invitation, ignore this mail.\n\n" +
        "Accept the invitation: https://x.test/app/invite/t\n",
    );
    expect(passwordResetMail("en", { url: "https://x.test/r" }).subject).toBe("Reset your Vigía Normativo password");
    const device = newDeviceMail("es", {
      at: new Date("2026-11-25T10:05:00Z"),
      userAgent: "",
      ip: "192.0.2.1",
      sessionsUrl: "https://x.test/app/account",
    });
    expect(device.text).toContain("el 2026-11-25 10:05 UTC.");
    expect(device.text).toContain("Dispositivo: desconocido. Dirección IP: 192.0.2.1.");
  });
});
