import { Form, useNavigation } from "@remix-run/react";
import { TOPICS } from "../../../worker/features/interests/topics";
import { FormError } from "../Field";

/**
 * What the newcomer cares about: a chip per topic, saved with one button (a plain form without
 * JavaScript). People to follow are then grouped by these topics.
 */
export function TopicPicker({ chosen, error }: { chosen: string[]; error?: string }) {
  const busy = useNavigation().formAction === "/welcome";
  return (
    <Form method="post" action="/welcome" className="topic-picker" preventScrollReset>
      <fieldset>
        <legend>What do you care about?</legend>
        <p className="hint">Pick a few: we suggest people who write about them.</p>
        <FormError error={error} />
        <div className="topic-chips">
          {TOPICS.map((t) => (
            <label key={t.key} className="topic-chip">
              <input type="checkbox" name="topics" value={t.key} defaultChecked={chosen.includes(t.key)} />
              <span>
                <strong>{t.name}</strong>
                <small>{t.blurb}</small>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <button className="btn primary" type="submit" name="intent" value="topics" disabled={busy}>
        {chosen.length ? "Update suggestions" : "Show people to follow"}
      </button>
    </Form>
  );
}
