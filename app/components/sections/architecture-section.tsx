import type { HomeContent } from "../../.server/home-content";
import { usePageMessages } from "../../i18n/use-page-messages";
import { type IconName, isIconName, SvgIcon } from "../ui/icons";

const stepIcons: IconName[] = ["watch", "identify", "classify", "distribute"];

export function ArchitectureSection({ content }: { content: HomeContent }) {
  const t = usePageMessages().home.architecture;
  return (
    <section id="architecture" className="section section-alt py-5" aria-labelledby="architecture-title">
      <div className="container py-lg-4">
        <div className="section-intro-text">
          <h2 id="architecture-title">{t.title}</h2>
          <p className="lead text-body-secondary">{t.lead}</p>
        </div>
        <h3 className="visually-hidden">{t.stepsLabel}</h3>
        <ol className="pipeline row g-3 list-unstyled mt-2">
          {t.steps.map((step, index) => (
            <li key={step.title} className="col-sm-6 col-lg-3" data-reveal="">
              <div className="pipeline-step h-100">
                <div className="d-flex align-items-center gap-2 mb-2">
                  <span className="step-number" aria-hidden="true">
                    {index + 1}
                  </span>
                  <SvgIcon name={stepIcons[index] ?? "watch"} size={22} className="text-primary-emphasis" />
                </div>
                <h4 className="h5">{step.title}</h4>
                <p className="text-body-secondary mb-0 small">{step.text}</p>
              </div>
            </li>
          ))}
        </ol>
        <div className="row gx-4 gx-xl-5 gy-5 mt-1 align-items-start">
          <div className="col-lg-5">
            <ul className="list-unstyled mb-0">
              {t.pillars.map((pillar) => (
                <li key={pillar.id} className="d-flex gap-3 mb-4" data-reveal="">
                  <span className="feature-icon flex-shrink-0">
                    {isIconName(pillar.id) ? <SvgIcon name={pillar.id} /> : null}
                  </span>
                  <div>
                    <h3 className="h5 mb-1">{pillar.title}</h3>
                    <p className="text-body-secondary mb-0">{pillar.text}</p>
                  </div>
                </li>
              ))}
            </ul>
          </div>
          <div className="col-lg-7" data-reveal="">
            <h3 className="h5">{t.codeTitle}</h3>
            <p className="text-body-secondary">{t.codeText}</p>
            <figure className="code-sample mb-0">
              <figcaption className="code-sample-caption">{t.codeLabel}</figcaption>
              {/* biome-ignore lint/security/noDangerouslySetInnerHtml: Shiki's output for a constant sample, made on the server (app/.server/home-content.ts) */}
              <div dangerouslySetInnerHTML={{ __html: content.codeSampleHtml }} />
            </figure>
          </div>
        </div>
      </div>
    </section>
  );
}
