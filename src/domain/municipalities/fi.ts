export const FI_MUNICIPALITIES = ``;
