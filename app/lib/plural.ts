/** The word for a count: "1 note", "2 notes", "0 notes" (the words the pages count have regular plurals). */
export const noun = (n: number, word: string) => (n === 1 ? word : `${word}s`);
