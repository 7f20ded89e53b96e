//===- LineFilter.cpp - findings only on the lines a change touches -------===//

#include "LineFilter.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

namespace warpcheck::tool {

bool LineFilter::keeps(llvm::ArrayRef<std::string> Paths, std::int64_t Line) const {
  for (const File &F : Files) {
    bool Named = llvm::any_of(
        Paths, [&](const std::string &P) { return llvm::StringRef(P).ends_with(F.Name); });
    if (!Named)
      continue;
    if (F.Lines.empty())
      return true;
    for (const auto &[First, Last] : F.Lines)
      if (First <= Line && Line <= Last)
        return true;
  }
  return false;
}

static llvm::Error filterError(const llvm::Twine &Cause) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "malformed --line-filter: " + Cause +
                                     " (expected [{\"name\": \"file.cu\", \"lines\": "
                                     "[[1, 3]]}, ...])");
}

llvm::Expected<LineFilter> parseLineFilter(llvm::StringRef Json) {
  llvm::Expected<llvm::json::Value> Doc = llvm::json::parse(Json);
  if (!Doc)
    return filterError(llvm::toString(Doc.takeError()));
  const llvm::json::Array *Entries = Doc->getAsArray();
  if (!Entries)
    return filterError("not a list");
  LineFilter Filter;
  for (size_t I = 0; I < Entries->size(); ++I) {
    std::string Where = "entry " + std::to_string(I + 1);
    const llvm::json::Object *Entry = (*Entries)[I].getAsObject();
    std::optional<llvm::StringRef> Name = Entry ? Entry->getString("name") : std::nullopt;
    if (!Name || Name->empty())
      return filterError(Where + " has no \"name\"");
    LineFilter::File File{Name->str(), {}};
    if (const llvm::json::Value *Lines = Entry->get("lines")) {
      const llvm::json::Array *Ranges = Lines->getAsArray();
      if (!Ranges)
        return filterError(Where + ": \"lines\" is not a list");
      for (const llvm::json::Value &R : *Ranges) {
        const llvm::json::Array *Pair = R.getAsArray();
        std::optional<int64_t> First, Last;
        if (Pair && Pair->size() == 2) {
          First = (*Pair)[0].getAsInteger();
          Last = (*Pair)[1].getAsInteger();
        }
        if (!First || !Last || *First < 1 || *Last < *First)
          return filterError(Where + ": a line range is not [first, last] with "
                                     "1 <= first <= last");
        File.Lines.emplace_back(*First, *Last);
      }
    }
    Filter.Files.push_back(std::move(File));
  }
  return Filter;
}

void applyLineFilters(RunResult &R, llvm::ArrayRef<LineFilter> Filters,
                      llvm::StringRef WorkingDirectory) {
  size_t Before = R.Findings.size();
  llvm::erase_if(R.Findings, [&](const Finding &F) {
    std::string Given = F.File.value_or("");
    llvm::SmallString<256> Abs(Given);
    if (!Given.empty() && !llvm::sys::path::is_absolute(Abs))
      llvm::sys::fs::make_absolute(WorkingDirectory, Abs);
    llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
    // git names files by their real path (GitDiff.h).
    llvm::SmallString<256> Real;
    if (llvm::sys::fs::real_path(Abs, Real))
      Real = Abs;
    std::string Paths[] = {Given, Abs.str().str(), Real.str().str()};
    return !llvm::all_of(Filters, [&](const LineFilter &Filter) {
      return Filter.keeps(Paths, F.Line.value_or(0));
    });
  });
  R.OutsideLineFilter += Before - R.Findings.size();
}

} // namespace warpcheck::tool
