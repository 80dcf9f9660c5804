// C0 and C1 control characters, DEL included: what the server strips from or escapes in text that
// came from a user (names, titles) before it goes into a file name, an e-mail or a terminal.
// eslint-disable-next-line no-control-regex -- matching control characters is this pattern's whole purpose
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/g;
