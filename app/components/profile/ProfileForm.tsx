import { Form } from "@remix-run/react";
import { MAX_LINKS } from "../../../worker/features/users/profile.limits";
import type { UserJson } from "../../../worker/features/users/users.service";
import { Dialog } from "../Dialog";
import { Field, FieldError, SubmitRow } from "../Field";
import { ImagePicker } from "./ImagePicker";

/**
 * The profile form, the same in Settings' Profile page and the profile's Edit Profile dialog:
 * name, headline, bio, place, links and pictures. `back` says where the action returns.
 */
export function ProfileForm({
  user,
  errors,
  back,
}: {
  user: UserJson;
  errors?: Record<string, string>;
  back: "profile" | "settings";
}) {
  const links = [...user.links, ...Array.from({ length: MAX_LINKS }, () => null)].slice(0, MAX_LINKS);
  return (
    <Form method="post" action="/actions/profile" encType="multipart/form-data" noValidate className="profile-form">
      <input type="hidden" name="back" value={back} />
      <Field label="Name" name="name" defaultValue={user.fullname} error={errors?.name} maxLength={200} />
      <Field
        label="Headline"
        name="headline"
        defaultValue={user.headline}
        error={errors?.headline}
        hint="One line under your name, as on a CV: what you do, where."
        maxLength={200}
      />
      <div className="field">
        <label htmlFor="descr">Description</label>
        <textarea
          id="descr"
          name="descr"
          defaultValue={user.descr}
          rows={3}
          aria-invalid={errors?.descr ? true : undefined}
        />
        <FieldError error={errors?.descr} />
      </div>
      <Field label="Location" name="location" defaultValue={user.location} error={errors?.location} maxLength={120} />
      <fieldset className="profile-links">
        <legend>Links</legend>
        <p className="hint">
          Your site, GitHub, Mastodon… A link gets a check mark once its page links back to your profile with{" "}
          <code>rel="me"</code>.
        </p>
        {links.map((l, i) => (
          <div className="link-row" key={i}>
            <Field
              label={`Link ${i + 1} label`}
              name={`link_name_${i}`}
              defaultValue={l?.name ?? ""}
              placeholder="Website"
              error={errors?.[`links.${i}.name`]}
              maxLength={80}
            />
            <Field
              label={`Link ${i + 1} address`}
              name={`link_url_${i}`}
              type="url"
              inputMode="url"
              defaultValue={l?.value ?? ""}
              placeholder="https://"
              error={errors?.[`links.${i}.url`]}
              maxLength={400}
            />
          </div>
        ))}
        <FieldError error={errors?.links} />
      </fieldset>
      <ImagePicker name="avatar" label="Avatar" current={user.avatar} shape="square" />
      <ImagePicker name="cover" label="Cover" current={user.cover} shape="wide" />
      <SubmitRow label="Save" />
    </Form>
  );
}

export function EditProfileDialog({ user, errors }: { user: UserJson; errors?: Record<string, string> }) {
  return (
    <Dialog title="Edit Profile" guard>
      <ProfileForm user={user} errors={errors} back="profile" />
    </Dialog>
  );
}
