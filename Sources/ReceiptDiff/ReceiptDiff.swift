/// The semantic receipt diff (issue #5) lives in this module.
enum ReceiptDiffModule {}
