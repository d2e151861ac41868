/** The resource an answer (or event) carries, so a variant knows which fields are optional. */
export type AnswerKind =
  | 'providerInfo'
  | 'health'
  | 'locations'
  | 'catalog'
  | 'offering'
  | 'offerings'
  | 'quote'
  | 'action'
  | 'paymentOptions'
  | 'cancelResult'
  | 'event'
  | 'error';
