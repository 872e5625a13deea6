// A LinkedIn "Get a copy of your data" archive with made-up rows, for the import pages.
import { strToU8, zipSync } from "fflate";

export const linkedinZip = () =>
  Buffer.from(
    zipSync({
      "Positions.csv": strToU8(
        "Company Name,Title,Description,Location,Started On,Finished On\r\nAnalytical Engines,Lead engineer,Led the engine team.,London,Mar 2021,\r\nBabbage & Co,Programmer,,,Jan 2017,Feb 2021\r\n",
      ),
      "Education.csv": strToU8(
        "School Name,Start Date,End Date,Notes,Degree Name,Activities\r\nOpen University,2012,2016,,BSc Mathematics,\r\n",
      ),
      "Skills.csv": strToU8("Name\r\nTypeScript\r\nAlgebra\r\nAlgebra\r\n"),
      "Languages.csv": strToU8("Name,Proficiency\r\nFrench,Professional working proficiency\r\n"),
    }),
  );
