/** The scopes a new key or app asks for: one checkbox per scope the developer account holds. */
import type { Dispatch, SetStateAction } from 'react';

export function ScopePicker<S extends string>({
  held,
  scopes,
  setScopes,
}: {
  held: readonly S[];
  scopes: readonly S[];
  setScopes: Dispatch<SetStateAction<S[]>>;
}) {
  return (
    <fieldset>
      <legend>Scopes</legend>
      {held.map((scope) => (
        <label key={scope} className="check">
          <input
            type="checkbox"
            checked={scopes.includes(scope)}
            onChange={(e) => setScopes((list) => (e.target.checked ? [...list, scope] : list.filter((s) => s !== scope)))}
          />
          <code>{scope}</code>
        </label>
      ))}
    </fieldset>
  );
}
