//===- ExportCompileCommands.cpp - a compile database clang-tidy can read -===//

#include "ExportCompileCommands.h"

#include "CommandLine.h"
#include "RunReport.h"
#include "RunResult.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace warpcheck::tool {

int exportCompileCommands(llvm::StringRef Path, const std::vector<TranslationUnitJob> &Jobs,
                          size_t InputJobs, RunRecord &Record) {
  llvm::json::Array Entries;
  for (size_t I = 0; I < InputJobs && I < Jobs.size(); ++I) {
    const TranslationUnitJob &J = Jobs[I];
    llvm::SmallString<256> File(J.File);
    llvm::sys::fs::make_absolute(J.Directory, File);
    llvm::sys::path::remove_dots(File, /*remove_dot_dot=*/true);
    llvm::json::Array Arguments;
    Arguments.push_back(ExportedCompiler.str());
    for (const std::string &A : J.ClangArgs)
      Arguments.push_back(A);
    Arguments.push_back(File.str().str());
    Entries.push_back(llvm::json::Object{{"directory", J.Directory},
                                         {"file", File.str().str()},
                                         {"arguments", std::move(Arguments)}});
  }
  RunResult Result = Record.replay();
  printErrorsAndNotes(Result);
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  if (!EC) {
    OS << llvm::formatv("{0:2}", llvm::json::Value(std::move(Entries))) << "\n";
    OS.flush();
    EC = OS.error();
    // A stream left in error makes LLVM abort when it is destroyed.
    OS.clear_error();
  }
  if (EC) {
    error("cannot write the compile database '" + Path + "': " + EC.message());
    return ExitReportNotWritten;
  }
  size_t Left = countRun(Result).NotAnalysed;
  note("compile database '" + Path + "': " + std::to_string(InputJobs) + " entr" +
       (InputJobs == 1 ? "y" : "ies") +
       (Left ? "; " + std::to_string(Left) + " input" + (Left == 1 ? "" : "s") + " left out"
             : std::string()));
  return Left ? ExitInputErrors : ExitOk;
}

} // namespace warpcheck::tool
