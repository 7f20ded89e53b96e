//===- GitDiff.cpp - the lines changed since a git revision ---------------===//

#include "GitDiff.h"

#include "warpcheck/toolchain/ProcessRunner.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <set>
#include <utility>

namespace warpcheck::tool {

static llvm::Error diffError(const llvm::Twine &Cause) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "--diff: " + Cause);
}

/// A path as git writes it in a diff header: C-quoted ("b/na\303\257ve.cu")
/// when it holds unusual characters; a name with a space ends in a tab.
static std::string unquoteGitPath(llvm::StringRef Path) {
  Path = Path.rtrim('\t');
  if (Path.size() < 2 || !Path.starts_with("\"") || !Path.ends_with("\""))
    return Path.str();
  Path = Path.drop_front().drop_back();
  std::string Out;
  for (size_t I = 0; I < Path.size(); ++I) {
    char C = Path[I];
    if (C != '\\' || I + 1 == Path.size()) {
      Out += C;
      continue;
    }
    char E = Path[++I];
    if (E >= '0' && E <= '7' && I + 2 < Path.size()) {
      unsigned Byte = 0;
      if (!Path.substr(I, 3).getAsInteger(8, Byte)) {
        Out += static_cast<char>(Byte);
        I += 2;
        continue;
      }
    }
    Out += E == 'n' ? '\n' : E == 't' ? '\t' : E;
  }
  return Out;
}

LineFilter parseUnifiedDiff(llvm::StringRef Diff, llvm::StringRef Root) {
  LineFilter Filter;
  LineFilter::File *Current = nullptr;
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Diff.split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    if (Line.starts_with("+++ ")) {
      std::string Name = unquoteGitPath(Line.drop_front(4));
      Current = nullptr;
      if (!llvm::StringRef(Name).starts_with("b/"))
        continue; // /dev/null: the file was deleted.
      llvm::SmallString<256> Abs(Root);
      llvm::sys::path::append(Abs, llvm::StringRef(Name).drop_front(2));
      Filter.Files.push_back({Abs.str().str(), {}});
      Current = &Filter.Files.back();
      continue;
    }
    // @@ -a[,b] +c[,d] @@: d lines from line c are new (d = 1 when absent).
    if (!Current || !Line.starts_with("@@ "))
      continue;
    llvm::StringRef New = Line.drop_front(3).split(' ').second.split(' ').first;
    if (!New.consume_front("+"))
      continue;
    auto [StartText, CountText] = New.split(',');
    std::int64_t Start = 0, Count = 1;
    if (StartText.getAsInteger(10, Start) || (!CountText.empty() && CountText.getAsInteger(10, Count)))
      continue;
    if (Count > 0)
      Current->Lines.emplace_back(Start, Start + Count - 1);
  }
  // A file whose every hunk only deletes keeps no line: "lines" must not
  // be empty, which would keep them all.
  for (LineFilter::File &F : Filter.Files)
    if (F.Lines.empty())
      F.Lines.emplace_back(0, -1);
  return Filter;
}

namespace {

/// Runs git with Args in a scratch folder for its output.
class Git {
public:
  static llvm::Expected<Git> find() {
    llvm::ErrorOr<std::string> Program = llvm::sys::findProgramByName("git");
    if (!Program)
      return diffError("git is not on PATH");
    llvm::SmallString<256> Scratch;
    if (std::error_code EC = llvm::sys::fs::createUniqueDirectory("warpcheck-git", Scratch))
      return diffError("cannot create a scratch folder: " + EC.message());
    return Git(*Program, Scratch.str().str());
  }
  // The moved-from object removes no folder.
  Git(Git &&Other)
      : Program(std::move(Other.Program)), Scratch(std::exchange(Other.Scratch, "")) {}
  ~Git() {
    if (!Scratch.empty())
      llvm::sys::fs::remove_directories(Scratch);
  }

  /// git's standard output, or an error with its message.
  llvm::Expected<std::string> run(llvm::StringRef Directory,
                                  llvm::ArrayRef<std::string> Args) const {
    // Whatever a repository's configuration says, git starts nothing else:
    // no pager, no fsmonitor hook (diff's own options below do the rest).
    std::vector<std::string> Argv = {Program, "--no-pager", "-c", "core.fsmonitor=false",
                                     "-c", "core.quotePath=true", "-C", Directory.str()};
    Argv.insert(Argv.end(), Args.begin(), Args.end());
    toolchain::ProcessResult R = toolchain::runProcess(Argv, {}, Scratch, /*Timeout=*/300);
    if (R.StartFailed || R.ExitCode != 0)
      return diffError("'git " + llvm::join(Args, " ") + "' in " + Directory + " failed: " +
                       llvm::StringRef(R.StartFailed ? R.StartError : R.Output).trim());
    return R.StandardOutput;
  }

private:
  Git(std::string Program, std::string Scratch)
      : Program(std::move(Program)), Scratch(std::move(Scratch)) {}
  std::string Program, Scratch;
};

} // namespace

llvm::Expected<LineFilter> changedLinesSince(llvm::StringRef Rev,
                                             llvm::ArrayRef<std::string> Files) {
  // A revision is never an option of git's.
  if (Rev.empty() || Rev.starts_with("-"))
    return diffError("'" + Rev + "' is not a revision");
  llvm::Expected<Git> G = Git::find();
  if (!G)
    return G.takeError();
  std::set<std::string> Directories;
  for (const std::string &F : Files)
    Directories.insert(llvm::sys::path::parent_path(F).str());
  std::set<std::string> Roots;
  for (const std::string &D : Directories) {
    llvm::Expected<std::string> Top = G->run(D, {"rev-parse", "--show-toplevel"});
    if (!Top)
      return Top.takeError();
    Roots.insert(llvm::StringRef(*Top).trim().str());
  }
  LineFilter Changed;
  for (const std::string &Root : Roots) {
    llvm::Expected<std::string> Diff =
        G->run(Root, {"diff", "--no-ext-diff", "--no-textconv", "--no-color", "--no-relative",
                      "--src-prefix=a/", "--dst-prefix=b/", "-U0", Rev.str(), "--"});
    if (!Diff)
      return Diff.takeError();
    LineFilter Part = parseUnifiedDiff(*Diff, Root);
    Changed.Files.insert(Changed.Files.end(), Part.Files.begin(), Part.Files.end());
  }
  return Changed;
}

} // namespace warpcheck::tool
