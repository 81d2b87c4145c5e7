interface NamedUser {
  name?: string | null;
  full_name?: string | null;
  first_name?: string | null;
  email?: string | null;
}

function firstFilled(...values: (string | null | undefined)[]): string | undefined {
  return values.map((v) => v?.trim()).find((v): v is string => Boolean(v));
}

/** Landing greeting: name, full_name, first_name, else the e-mail's local part, else 'User'. */
export function bestName(user: NamedUser | null | undefined): string {
  const localPart = user?.email?.split('@')[0];
  return firstFilled(user?.name, user?.full_name, user?.first_name, localPart) ?? 'User';
}

/** Dashboard welcome line: name, else full_name, else e-mail. */
export function welcomeName(user: NamedUser | null | undefined): string {
  return firstFilled(user?.name, user?.full_name, user?.email) ?? 'User';
}
