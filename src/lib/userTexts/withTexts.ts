// For the texts modules whose objects hold texts and text functions side by side (MEMBERS_TEXTS.title
// beside MEMBERS_TEXTS.invited(email)): the texts of a textsOf object, still read when used, joined
// to the functions without reading them now (their getters are copied, not their values).

export function withTexts<const Keys extends string, Rest extends object>(texts: { readonly [Key in Keys]: string }, rest: Rest): { readonly [Key in Keys]: string } & Readonly<Rest> {
  return Object.defineProperties(rest, Object.getOwnPropertyDescriptors(texts)) as { readonly [Key in Keys]: string } & Readonly<Rest>;
}
