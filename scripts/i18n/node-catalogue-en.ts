// `virtual:catalogue/en` outside Vite (see node-catalogues.ts).
import { englishCatalogue } from './node-catalogues.ts';

export default englishCatalogue;
